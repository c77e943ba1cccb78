/**
 * The plan against what the cluster did, fact by fact (pure): the plan of one node (`plan NODE -o json`),
 * the drain's events (`drain NODE -o json`), and the pods before the drain and once the scheduler has
 * settled after it.
 *
 * What kube-scheduler and the eviction API leave to chance is compared as counts, never by name: which of
 * a budget's pods wins the budget's room is a race between concurrent evictions, so a budget's pods are
 * compared as how many went at once, how many after waiting, how many never; a Deployment's replacements
 * (new names) as how many found a node. A replacement's node is compared only where the scheduler has no
 * choice: the plan found a single feasible node for it and no other replacement could have taken that
 * node (preemption: a nomination not tied with another node). A replacement the plan calls `unknown` (where
 * it runs, or whether it finds a node) is not judged, and said so, never counted as agreeing; nor are the
 * preemption victims then (it may preempt where the plan does not say). Nor, when a budget's later waves
 * wait for such a replacement (a pod's `outcomeUnknown`), are that budget's waves, those pods'
 * replacements' nodes, or whether the drain finishes (unless something else certainly blocks it); where
 * it decides only in which wave a pod goes (`waveUnknown`), that budget's waves.
 */
import type { DrainEvent } from '../../src/drain/events.js';
import type { DrainPlan, PodPlan, ReplacementPlan } from '../../src/plan/types.js';

/** A pod of the generated cluster as read from the API server. */
export interface PodState {
  readonly name: string;
  readonly uid: string;
  /** The workload it belongs to (its `app` label): a Deployment's or StatefulSet's name. */
  readonly app: string;
  readonly daemonSet: boolean;
  readonly node: string | null;
  /** Pending with PodScheduled False, reason Unschedulable, and not nominated to a node. */
  readonly unschedulable: boolean;
}

export interface Observation {
  readonly node: string;
  readonly plan: DrainPlan;
  readonly events: readonly DrainEvent[];
  readonly before: readonly PodState[];
  readonly after: readonly PodState[];
  /**
   * Per pod, the admission webhooks the API server called for a real request of the drain (its dry runs
   * left out), as the harness's webhook server recorded them; absent in a record made without one.
   */
  readonly webhookCalls?: Readonly<Record<string, readonly string[]>>;
}

export interface Fact {
  /** What the fact is about: a pod, a budget, a workload, the drain. */
  readonly subject: string;
  readonly fact:
    | 'blocked'
    | 'action'
    | 'waves'
    | 'outcome'
    | 'admission'
    | 'webhooks'
    | 'replacements'
    | 'node'
    | 'preemption victims';
  readonly plan: string;
  readonly cluster: string;
  readonly agree: boolean;
}

export interface Comparison {
  readonly facts: readonly Fact[];
  /** What could not be compared, and why (a replacement the plan calls unknown, a tied preemption). */
  readonly notJudged: readonly string[];
}

/**
 * What a pod's not-judged line says when a webhook or policy whose answer the plan cannot tell decides its
 * eviction (and the plan says so): counted apart from the rest (isAdmissionNotJudged).
 */
const ADMISSION_NOT_JUDGED = 'its admission';
export const isAdmissionNotJudged = (line: string) => line.includes(`: ${ADMISSION_NOT_JUDGED} (`);

type Outcome = 'immediate' | 'waits' | 'blocked';
/** How many of a group of pods went at once, after waiting, never: the admissions in the order of a drain. */
export type Tally = Readonly<Record<Outcome, number>>;

export function tally(outcomes: Iterable<Outcome | null>): Tally {
  const counts = { immediate: 0, waits: 0, blocked: 0 };
  for (const o of outcomes) if (o) counts[o]++;
  return counts;
}

export const tallyText = (t: Tally) => `${t.immediate} at once, ${t.waits} after waiting, ${t.blocked} never`;

/**
 * How each pod the drain named fared: admitted at once, after waiting for its budget, or never.
 *
 * A request the API answers with the pod already gone (`already-gone` right after `evicting`: a 404, or
 * the 409 of the drain's UID precondition meeting a new pod of the same name) admitted it: in the
 * harness's clusters nothing but the drain's eviction removes a pod of the drained node, and that
 * eviction passed its budget before the pod went (seed 42, test/unit/fidelity/compare.test.ts). A pod that disappears while
 * it waits for its budget, with no request out, was not admitted.
 */
export function drainOutcomes(events: readonly DrainEvent[]): Map<string, Outcome | 'skipped'> {
  const seen = new Map<string, { waited: boolean; admitted: boolean; skipped: boolean; requested: boolean }>();
  for (const e of events) {
    if (e.type !== 'pod') continue;
    const s = seen.get(e.pod.name) ?? { waited: false, admitted: false, skipped: false, requested: false };
    const phase = e.state.phase;
    if (phase === 'waiting-for-budget') s.waited = true;
    // A webhook's 429 (its operator moves the pod first): the eviction waits for it.
    if (phase === 'retrying' && WEBHOOK_REFUSAL.test(e.state.error)) s.waited = true;
    if (phase === 'terminating' || (phase === 'gone' && e.state.how === 'evicted')) s.admitted = true;
    if (phase === 'gone' && e.state.how === 'already-gone' && s.requested) s.admitted = true;
    if (phase === 'skipped') s.skipped = true;
    // The last state was a request still out: its answer is the next state.
    s.requested = phase === 'evicting';
    seen.set(e.pod.name, s);
  }
  return new Map(
    [...seen].map(([name, s]) => [
      name,
      s.skipped ? 'skipped' : s.admitted ? (s.waited ? 'waits' : 'immediate') : 'blocked',
    ]),
  );
}

/**
 * Every replacement the drain causes: the admitted pods', then their preemption victims' (and theirs).
 * `mayNotBe`: a victim's, of a preemption by a replacement the plan calls unknown (which may not preempt,
 * or preempt elsewhere); and the replacement of a pod whose eviction the plan calls unknown
 * (`outcomeUnknown`: it may never be evicted), with its victims'.
 */
function replacementsOf(
  plan: DrainPlan,
  superseded = false,
): Array<{ pod: string; controller: string; replacement: ReplacementPlan; mayNotBe: boolean }> {
  type Link = { pod: string; controller: string; replacement: ReplacementPlan; mayNotBe: boolean; depth: number };
  const out: Link[] = [];
  const visit = (
    pod: string,
    controller: string | undefined,
    replacement: ReplacementPlan | null,
    depth: number,
    mayNotBe: boolean,
  ) => {
    if (!replacement || !controller) return;
    out.push({ pod, controller, replacement, mayNotBe, depth });
    for (const v of replacement.preemption?.victims ?? [])
      visit(v.name, v.controller?.name, v.replacement, depth + 1, mayNotBe || replacement.unknown !== undefined);
  };
  for (const p of admittedPods(plan))
    visit(p.name, p.controller?.name, p.replacement, 0, p.outcomeUnknown !== undefined);
  // A replacement a later one preempts is replaced in turn (the plan names it after the pod it replaced,
  // as a victim deeper in the preemption chain than the pod itself): only the last of the chain, the
  // deepest, is left in the cluster.
  const kept = (r: Link, i: number) =>
    !out.some(
      (other, j) => j !== i && other.pod === r.pod && (other.depth > r.depth || (other.depth === r.depth && j > i)),
    );
  return (superseded ? out : out.filter(kept)).map(({ depth: _depth, ...r }) => r);
}

const admittedPods = (plan: DrainPlan): PodPlan[] =>
  plan.pods.filter((p) => p.action === 'evict' && (p.outcome === 'immediate' || p.outcome === 'waits'));

const count = <T>(items: Iterable<T>): Map<T, number> => {
  const m = new Map<T, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
};

export function compare(o: Observation): Comparison {
  const facts: Fact[] = [];
  const notJudged: string[] = [];
  const drained = o.plan.pods.filter((p) => p.node === o.node);
  const outcomes = drainOutcomes(o.events);
  const finished = o.events.find((e) => e.type === 'finished');

  // A pod whose budget waits for a replacement of unknown fate may never go: unless something else
  // certainly blocks the drain, whether it finishes is not the plan's to know.
  const uncertain = o.plan.pods.filter((p) => p.outcomeUnknown !== undefined);
  const certainlyBlocked = o.plan.pods.some(
    (p) => p.action === 'refuse' || (p.outcome === 'blocked' && p.outcomeUnknown === undefined),
  );
  if (uncertain.length > 0 && !certainlyBlocked) {
    notJudged.push(`drain of ${o.node}: whether it finishes (${uncertain[0]!.outcomeUnknown})`);
  } else {
    facts.push(
      fact(`drain of ${o.node}`, 'blocked', o.plan.verdict === 'blocked', finished?.result !== 'drained', (b) =>
        b ? 'blocked' : 'finishes',
      ),
    );
  }

  for (const p of drained) {
    const seen = outcomes.get(p.name);
    const action = seen === undefined || seen === 'skipped' ? 'skip' : 'evict';
    facts.push(fact(p.name, 'action', p.action, action, String));
  }

  // Outcomes per budget (a race decides which pod goes first), per pod where no budget covers it.
  const groups = Map.groupBy(
    drained.filter((p) => p.action === 'evict'),
    (p) => (p.pdbs.length === 0 ? p.name : p.pdbs.map((b) => `${b.namespace}/${b.name}`).join(' + ')),
  );
  for (const [group, pods] of groups) {
    const planned = tally(pods.map((p) => p.outcome));
    const observed = tally(pods.map((p) => (outcomes.get(p.name) as Outcome | undefined) ?? 'blocked'));
    const budget = pods[0]!.pdbs.length > 0;
    const budgetPlan = o.plan.budgets.find((b) => `${b.namespace}/${b.name}` === group);
    const waves = budgetPlan?.waves;
    if (budgetPlan?.unknown !== undefined) {
      notJudged.push(`budget ${group}: its waves (${budgetPlan.unknown})`);
      continue;
    }
    if (!budget && pods[0]!.outcomeUnknown !== undefined) {
      notJudged.push(`${group}: its outcome (${pods[0]!.outcomeUnknown})`);
      continue;
    }
    facts.push({
      subject: budget ? `budget ${group}` : group,
      fact: budget ? 'waves' : 'outcome',
      plan: tallyText(planned) + (waves === undefined ? '' : ` (${waves} wave${waves === 1 ? '' : 's'})`),
      cluster: tallyText(observed),
      agree: sameTally(planned, observed),
    });
  }

  // What admission answered each eviction (a policy's or webhook's denial, a webhook's 429s, the warnings),
  // where the drain asked the API server.
  const answered = admissionAnswers(o.events);
  for (const p of drained.filter((p) => p.action === 'evict' && p.admission !== undefined)) {
    const seen = answered.get(p.name);
    if (!seen) continue;
    const undecided = [
      ...p.admission!.unknown.map((u) => u.policy),
      ...undecidedWebhooks(p).map((w) => `webhook ${w.name}`),
    ];
    if (undecided.length > 0) {
      notJudged.push(`${p.name}: ${ADMISSION_NOT_JUDGED} (${undecided.join(', ')} unknown)`);
      continue;
    }
    // Where several policies deny, the API server reports any one of them: the cluster's may be any of the plan's.
    const denials = [p.admission!.denied, ...(p.admission!.deniedAlso ?? [])].flatMap((d) => (d ? [d.text] : []));
    const waits = p.admission!.denied ? [] : waitingWebhooks(p);
    const observed = admissionText(seen.denied, [...seen.warnings], [...seen.waits]);
    const named = denials.find((d) => d === seen.denied) ?? denials[0];
    // A validating webhook answering 429 beside the denying one (waitsFirst) may be reported first: the drain
    // then waited on its 429s, and met the denial once they stopped, or not before it ended.
    const waitedFirst = waitingWebhooks(p).filter((w) =>
      (p.admission!.waitsFirst ?? []).some((name) => w.startsWith(`admission webhook "${name}" `)),
    );
    const accepted = [
      admissionText(named, p.admission!.warnings, waits),
      ...(waitedFirst.length > 0
        ? [named, undefined].map((d) => admissionText(d, p.admission!.warnings, waitedFirst))
        : []),
    ];
    const agree = accepted.includes(observed);
    const planned = admissionText(
      denials.length > 1 ? `one of ${denials.join(' | ')}` : named,
      p.admission!.warnings,
      waits,
    );
    facts.push({ subject: p.name, fact: 'admission', plan: planned, cluster: observed, agree });
  }
  // A pod the plan expects nothing in the chain to concern, that a policy or webhook refused or warned: disagrees too.
  for (const p of drained.filter((p) => p.action === 'evict' && p.admission === undefined)) {
    const seen = answered.get(p.name);
    if (!seen || (seen.denied === undefined && seen.warnings.size === 0 && seen.waits.size === 0)) continue;
    const observed = admissionText(seen.denied, [...seen.warnings], [...seen.waits]);
    facts.push({ subject: p.name, fact: 'admission', plan: 'admitted', cluster: observed, agree: false });
  }
  // Which webhooks the API server called for each pod's eviction, against those the plan names in the chain's order.
  if (o.webhookCalls) {
    for (const p of drained.filter((p) => p.action === 'evict')) {
      const called = [...(o.webhookCalls[p.name] ?? [])].sort();
      const { certain, maybe } = webhooksCalled(p);
      if (certain.length === 0 && maybe.length === 0 && called.length === 0) continue;
      const agree =
        certain.every((w) => called.includes(w)) && called.every((w) => certain.includes(w) || maybe.includes(w));
      const planned = [certain.join(', ') || 'none', ...(maybe.length > 0 ? [`maybe ${maybe.join(', ')}`] : [])];
      facts.push({
        subject: p.name,
        fact: 'webhooks',
        plan: planned.join('; '),
        cluster: called.join(', ') || 'none',
        agree,
      });
    }
  }

  // Replacements per workload: how many found a node.
  const before = new Set(o.before.map((p) => p.uid));
  // A DaemonSet's pod is new only when preemption deleted the old one (the drain skips them): the
  // DaemonSet controller recreates it for the same node.
  const fresh = o.after.filter((p) => !before.has(p.uid));
  const replacements = replacementsOf(o.plan);
  // A preemption whose node is tied: kube-scheduler picks one of the tied nodes at random, and with it
  // the victims, so what becomes of the workloads with pods on those nodes is not the plan's to know.
  const everyLink = replacementsOf(o.plan, true);
  const tied = everyLink.find((r) => (r.replacement.preemption?.tiedWith.length ?? 0) > 0);
  // A preemption that spares pods of a budget the wave evicts two or more of: met before the wave's
  // evictions are all admitted, it may take those pods instead (budgetsSpared), so its victims are not
  // the plan's to know either.
  const racing = new Set(o.plan.budgets.filter((b) => b.perWave >= 2).map((b) => `${b.namespace}/${b.name}`));
  const spared = everyLink.find((r) => r.replacement.preemption?.budgetsSpared?.some((b) => racing.has(b)));
  const tiedNodes = new Set([
    ...(tied ? [tied.replacement.preemption!.node, ...tied.replacement.preemption!.tiedWith] : []),
    ...(spared ? [spared.replacement.preemption!.node] : []),
  ]);
  const onTiedNodes = new Set(o.before.filter((p) => p.node !== null && tiedNodes.has(p.node)).map((p) => p.app));
  // A replacement whose fate the plan leaves unknown may take room, or preempt, where the plan does not
  // say: the workloads whose pods off the drained node the cluster deleted and the plan did not name as
  // victims are not judged then (nor are the victims, below).
  const unknown = everyLink.filter((r) => r.replacement.unknown !== undefined);
  const namedVictims = new Set(everyLink.flatMap((r) => r.replacement.preemption?.victims.map((v) => v.name) ?? []));
  const afterUids = new Set(o.after.map((p) => p.uid));
  const displaced = new Set(
    unknown.length === 0
      ? []
      : o.before
          .filter((p) => p.node !== o.node && !afterUids.has(p.uid) && !namedVictims.has(p.name))
          .map((p) => p.app),
  );
  for (const [controller, list] of Map.groupBy(replacements, (r) => r.controller)) {
    const unknownHere = list.filter((r) => r.replacement.unknown !== undefined);
    if (unknownHere.length > 0) {
      notJudged.push(
        `${controller}: the plan cannot tell what becomes of ${unknownHere.length} replacement(s) (${unknownHere[0]!.replacement.unknown})`,
      );
      continue;
    }
    const preemptedByUnknown = list.filter((r) => r.mayNotBe);
    if (preemptedByUnknown.length > 0) {
      notJudged.push(
        `${controller}: ${preemptedByUnknown.length} replacement(s) that may not be made (preempted by a replacement the plan cannot tell about, or replacing a pod whose eviction is unknown)`,
      );
      continue;
    }
    if (displaced.has(controller)) {
      notJudged.push(
        `${controller}: preempted where the plan does not say, while ${unknown.length} replacement(s) are unknown`,
      );
      continue;
    }
    if (onTiedNodes.has(controller)) {
      notJudged.push(
        `${controller}: has pods on ${[...tiedNodes].join(', ')}, where a tied or racing preemption picks its victims`,
      );
      continue;
    }
    const planned = list.filter((r) => r.replacement.schedulable).length;
    const mine = fresh.filter((p) => p.app === controller);
    const placed = mine.filter((p) => p.node !== null).length;
    facts.push({
      subject: controller,
      fact: 'replacements',
      plan: `${planned} placed, ${list.length - planned} without a node`,
      cluster: `${placed} placed, ${mine.length - placed} without a node`,
      agree: planned === placed && list.length === mine.length,
    });
  }
  for (const app of new Set(fresh.map((p) => p.app))) {
    if (!replacements.some((r) => r.controller === app) && !onTiedNodes.has(app) && displaced.has(app)) {
      notJudged.push(
        `${app}: preempted where the plan does not say, while ${unknown.length} replacement(s) are unknown`,
      );
    } else if (!replacements.some((r) => r.controller === app) && !onTiedNodes.has(app)) {
      facts.push({
        subject: app,
        fact: 'replacements',
        plan: 'none',
        cluster: `${fresh.filter((p) => p.app === app).length} new pod(s)`,
        agree: false,
      });
    }
  }

  // Nodes, where the scheduler has no choice.
  const contested = new Set(
    replacements.filter((r) => r.replacement.nodes.length > 1).flatMap((r) => r.replacement.nodes),
  );
  const freshNodes = new Map(
    [...Map.groupBy(fresh, (p) => p.app)].map(([app, pods]) => [app, count(pods.map((p) => p.node))]),
  );
  // Several replacements of one workload are matched as a multiset of nodes, never by name: which of
  // them the scheduler meets first (and so which takes the room) is a race between their evictions.
  const perWorkload = count(replacements.map((r) => r.controller));
  const mayStay = new Set(uncertain.map((p) => p.name));
  for (const r of replacements) {
    const node = r.replacement.placedOn;
    if (!node || r.replacement.unknown !== undefined || onTiedNodes.has(r.controller)) continue;
    if (mayStay.has(r.pod)) {
      notJudged.push(`replacement of ${r.pod}: node (whether the pod is evicted at all is unknown)`);
      continue;
    }
    if (r.mayNotBe) continue;
    const single = r.replacement.preemption
      ? r.replacement.preemption.tiedWith.length === 0
      : r.replacement.nodes.length === 1;
    if (!single || contested.has(node)) continue;
    const sameName = perWorkload.get(r.controller) === 1 ? fresh.find((p) => p.name === r.pod) : undefined;
    let cluster: string;
    let agree: boolean;
    if (sameName) {
      cluster = sameName.node ?? 'no node';
      agree = sameName.node === node;
    } else {
      const nodes = freshNodes.get(r.controller) ?? new Map<string | null, number>();
      const left = nodes.get(node) ?? 0;
      agree = left > 0;
      if (agree) nodes.set(node, left - 1);
      cluster = agree
        ? node
        : `not ${node} (${[...nodes].map(([n, c]) => `${n ?? 'no node'}×${c}`).join(', ') || 'none'})`;
    }
    facts.push({ subject: `replacement of ${r.pod}`, fact: 'node', plan: node, cluster, agree });
  }

  // Preemption: the pods deleted to make room, off the drained node.
  const mayNotPreempt = everyLink.find((r) => r.mayNotBe && r.replacement.preemption);
  if (tied) {
    notJudged.push(
      `preemption victims: ${tied.pod}'s nomination is tied with ${tied.replacement.preemption!.tiedWith.join(', ')}`,
    );
  } else if (spared) {
    notJudged.push(
      `preemption victims: ${spared.pod}'s preemption spares pods of budget ${spared.replacement.preemption!.budgetsSpared!.join(', ')}, which its wave's evictions race`,
    );
  } else if (unknown.length > 0) {
    notJudged.push(
      `preemption victims: the plan cannot tell what ${unknown.map((r) => `${r.pod}'s replacement`).join(', ')} preempts (${unknown[0]!.replacement.unknown})`,
    );
  } else if (mayNotPreempt) {
    notJudged.push(`preemption victims: ${mayNotPreempt.pod}'s replacement preempts, but may not be made`);
  } else {
    // A victim named after a drained pod is its replacement, preempted by a later one: a pod the cluster
    // made during the drain, not compared by name.
    const drainedNames = new Set(drained.map((p) => p.name));
    const victims = everyLink.flatMap((r) => r.replacement.preemption?.victims.map((v) => v.name) ?? []);
    for (const v of victims.filter((v) => drainedNames.has(v)))
      notJudged.push(`preemption victims: the replacement of ${v}`);
    const planned = victims.filter((v) => !drainedNames.has(v)).sort();
    const after = new Set(o.after.map((p) => p.uid));
    const preempted = o.before
      .filter((p) => p.node !== o.node && !after.has(p.uid))
      .map((p) => p.name)
      .sort();
    facts.push({
      subject: `drain of ${o.node}`,
      fact: 'preemption victims',
      plan: planned.join(', ') || 'none',
      cluster: preempted.join(', ') || 'none',
      agree: planned.join() === preempted.join(),
    });
  }
  return { facts, notJudged };
}

const sameTally = (a: Tally, b: Tally) => a.immediate === b.immediate && a.waits === b.waits && a.blocked === b.blocked;

// How the API server words a ValidatingAdmissionPolicy's denial and a webhook's refusal (the drain adds the HTTP
// status to a denial).
const POLICY_DENIAL = /ValidatingAdmissionPolicy '[^']+' with binding '[^']+' denied request/;
const WEBHOOK_REFUSAL = /^admission webhook "[^"]+" denied the request/;

interface AdmissionAnswer {
  denied?: string;
  readonly warnings: Set<string>;
  /** A webhook's 429s (its operator moving the pod first), each refusal once. */
  readonly waits: Set<string>;
}

/**
 * Per pod the drain asked the API server about (namespace left out): the policy's or webhook's denial that
 * failed it (as the API server worded it), the webhooks' 429s it waited on, and the Warning headers its
 * answers carried.
 */
export function admissionAnswers(events: readonly DrainEvent[]): Map<string, AdmissionAnswer> {
  const answers = new Map<string, AdmissionAnswer>();
  const of = (name: string) =>
    answers.get(name) ?? answers.set(name, { warnings: new Set(), waits: new Set() }).get(name)!;
  for (const e of events) {
    if (e.type === 'warning' && e.pod) of(e.pod.name).warnings.add(e.message);
    if (e.type !== 'pod') continue;
    const { phase } = e.state;
    if (phase === 'failed' && (POLICY_DENIAL.test(e.state.error) || WEBHOOK_REFUSAL.test(e.state.error))) {
      of(e.pod.name).denied = e.state.error.replace(/ \(HTTP \d+\)$/, '');
    } else if (phase === 'retrying' && WEBHOOK_REFUSAL.test(e.state.error)) {
      of(e.pod.name).waits.add(e.state.error);
    } else if (
      phase === 'waiting-for-budget' ||
      phase === 'terminating' ||
      (phase === 'gone' && e.state.how === 'evicted')
    ) {
      of(e.pod.name);
    }
  }
  return answers;
}

function admissionText(denied: string | undefined, warnings: readonly string[], waits: readonly string[] = []): string {
  const parts = [denied === undefined ? 'admitted' : `denied: ${denied}`];
  if (waits.length > 0) parts.push(`waited: ${[...waits].sort().join(' | ')}`);
  if (warnings.length > 0) parts.push(`warned: ${[...warnings].sort().join(' | ')}`);
  return parts.join('; ');
}

/** The webhooks whose answer, or whether they are called, the plan cannot tell. */
const undecidedWebhooks = (p: PodPlan) =>
  (p.admission?.webhooks ?? []).filter((w) => w.answer === 'unknown' || w.matchUnknown !== undefined);

/** The 429s of the webhooks the plan expects to make the pod wait, as the API server words them. */
const waitingWebhooks = (p: PodPlan) =>
  (p.admission?.webhooks ?? [])
    .filter((w) => w.answer === 'wait')
    .map((w) => `admission webhook "${w.name}" denied the request: ${w.message ?? ''}`);

/**
 * The webhooks the drain's requests for the pod certainly reach, and those they may, in the chain's order
 * (the reference's admission order): mutating webhooks one after another, a refusal ending the chain; then
 * the policies, whose denial ends it before any validating webhook; then every validating webhook, called
 * in parallel. A webhook whose answer is unknown may refuse: those after it in sequence may not be called.
 * One that makes the pod wait admits it in the end, so those after it are reached too.
 */
function webhooksCalled(p: PodPlan): { certain: string[]; maybe: string[] } {
  const certain: string[] = [];
  const maybe: string[] = [];
  const hooks = p.admission?.webhooks ?? [];
  let stopped = false;
  let perhapsStopped = false;
  const meet = (w: (typeof hooks)[number]) => {
    if (stopped) return;
    (perhapsStopped || w.matchUnknown !== undefined ? maybe : certain).push(w.name);
    if (w.answer === 'deny' && w.matchUnknown === undefined && !perhapsStopped) stopped = true;
    else if (w.answer === 'unknown' || w.answer === 'deny' || w.matchUnknown !== undefined) perhapsStopped = true;
  };
  for (const w of hooks.filter((h) => h.kind === 'MutatingWebhookConfiguration')) meet(w);
  if (p.admission?.denied?.by === 'ValidatingAdmissionPolicy' && !perhapsStopped) stopped = true;
  if ((p.admission?.unknown.length ?? 0) > 0 || p.admission?.denied?.by === 'ValidatingAdmissionPolicy')
    perhapsStopped = true;
  const validating = hooks.filter((h) => h.kind === 'ValidatingWebhookConfiguration');
  // Called in parallel: one validating webhook's refusal does not keep the others from being called.
  if (!stopped)
    for (const w of validating) (perhapsStopped || w.matchUnknown !== undefined ? maybe : certain).push(w.name);
  return {
    certain: [...new Set(certain)].sort(),
    maybe: [...new Set(maybe)].filter((w) => !certain.includes(w)).sort(),
  };
}

function fact<T>(subject: string, name: Fact['fact'], plan: T, cluster: T, text: (v: T) => string): Fact {
  return { subject, fact: name, plan: text(plan), cluster: text(cluster), agree: plan === cluster };
}
