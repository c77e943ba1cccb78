import { downText } from '../plan/outage-text.js';
import type {
  BudgetPlan,
  DrainPlan,
  PodPlan,
  PreemptionPlan,
  ReplacementPlan,
  StrategyStepEta,
  Verdict,
} from '../plan/types.js';
import { formatSeconds, listNames, qualified } from './format.js';
import { plural } from '../wording.js';
import type { Tone } from './theme.js';

/**
 * The plan cut into what the views show, in the order an operator reads it. Text and Ink views both
 * render these, so the two never disagree on grouping or wording.
 */

export type PodGroupKey =
  'refused' | 'held' | 'rescued' | 'unknown' | 'blocked' | 'waits' | 'immediate' | 'deleted' | 'skipped';

export interface PodGroup {
  readonly key: PodGroupKey;
  readonly title: string;
  readonly tone: Tone;
  readonly pods: readonly PodPlan[];
}

/**
 * Refused pods come first even though they are not evictions: kubectl stops before evicting anything
 * when one pod is refused, so they decide the drain. Then the evictions whose outcome the plan cannot tell
 * (`outcomeUnknown`), blocked, waits and immediate ones, then the pods the drain deletes or leaves alone.
 */
const GROUP_ORDER: readonly {
  key: PodGroupKey;
  title: string;
  tone: Tone;
  test: (p: PodPlan, plan: DrainPlan) => boolean;
}[] = [
  { key: 'refused', title: 'Refused: kubectl stops the drain', tone: 'bad', test: (p) => p.action === 'refuse' },
  {
    // Not a budget's doing: kubectl evicts nothing on a node where one pod is refused.
    key: 'held',
    title: 'Not evicted: kubectl evicts nothing on a node where a pod is refused',
    tone: 'bad',
    test: (p, plan) =>
      p.action === 'evict' &&
      p.outcome === 'blocked' &&
      plan.pods.some((q) => q.action === 'refuse' && q.node === p.node),
  },
  {
    key: 'rescued',
    title: 'Taken out by a strategy (their budget never admits the eviction)',
    tone: 'warn',
    test: (p) => rescuedBy(p) !== null,
  },
  {
    key: 'unknown',
    title: 'Unknown: may never be evicted',
    tone: 'warn',
    test: (p) => p.action === 'evict' && p.outcomeUnknown !== undefined,
  },
  { key: 'blocked', title: 'Blocked: eviction never admitted', tone: 'bad', test: (p) => p.outcome === 'blocked' },
  { key: 'waits', title: 'Waits for a budget', tone: 'warn', test: (p) => p.outcome === 'waits' },
  { key: 'immediate', title: 'Evicted at once', tone: 'ok', test: (p) => p.outcome === 'immediate' },
  { key: 'deleted', title: 'Deleted without eviction', tone: 'warn', test: (p) => p.action === 'delete' },
  { key: 'skipped', title: 'Left on the node', tone: 'muted', test: (p) => p.action === 'skip' },
];

/**
 * The strategy that takes out a pod its budget never lets go: --surge (an extra replica first, then the
 * budget admits it) or --escalate-after (deleted past the budget). Null for any other pod.
 */
export function rescuedBy(pod: PodPlan): '--surge' | '--escalate-after' | null {
  if (pod.outcome !== 'blocked') return null;
  if (pod.surge?.surged) return '--surge';
  return pod.escalation?.when === 'certain' ? '--escalate-after' : null;
}

/** Non-empty groups, in reading order. An evicted pod with no outcome yet is counted as immediate. */
export function podGroups(plan: DrainPlan): PodGroup[] {
  const placed = new Set<PodPlan>();
  const groups: PodGroup[] = [];
  for (const group of GROUP_ORDER) {
    const pods = plan.pods.filter((p) => !placed.has(p) && group.test(p, plan));
    pods.forEach((p) => placed.add(p));
    if (pods.length > 0) groups.push({ key: group.key, title: group.title, tone: group.tone, pods });
  }
  const rest = plan.pods.filter((p) => !placed.has(p));
  if (rest.length > 0) {
    const immediate = groups.find((g) => g.key === 'immediate');
    if (immediate) groups[groups.indexOf(immediate)] = { ...immediate, pods: [...immediate.pods, ...rest] };
    else groups.push({ key: 'immediate', title: 'Evicted at once', tone: 'ok', pods: rest });
  }
  return groups;
}

/** The one line that opens every plan view. */
export function verdictHeadline(plan: DrainPlan): string {
  const nodes = plan.nodes.join(', ');
  const headlines: Record<Verdict, string> = {
    clear: `CLEAR: every pod can leave ${nodes} now`,
    slow: `SLOW: draining ${nodes} waits for disruption budgets`,
    blocked: `BLOCKED: draining ${nodes} ${blockedWords(plan)}`,
    disruptive: disruptiveHeadline(plan),
    incomplete: `INCOMPLETE: the plan for ${nodes} could not read all it needs (from what it read: ${plan.assumedVerdict})`,
  };
  return headlines[plan.verdict];
}

/**
 * What a blocked plan says of its drain: "cannot finish" when a pod certainly holds it back (refused, or
 * blocked), "may not finish" when only pods whose outcome is unknown do.
 */
export type BlockedWords = 'cannot finish' | 'may not finish';

export function blockedWords(plan: DrainPlan): BlockedWords {
  const sure = plan.pods.some(
    (p) => p.action === 'refuse' || (p.outcome === 'blocked' && p.outcomeUnknown === undefined),
  );
  return sure ? 'cannot finish' : 'may not finish';
}

/**
 * The drain finishes but leaves workloads down: the workload and how long when there is one, else how
 * many (each has its own line first among the reasons).
 */
function disruptiveHeadline(plan: DrainPlan): string {
  const nodes = plan.nodes.join(', ');
  const outages = plan.outages ?? [];
  const workloads = new Set(outages.map((o) => `${o.kind} ${o.namespace}/${o.name}`));
  if (outages.length === 1) {
    return `DISRUPTIVE: draining ${nodes} leaves ${[...workloads][0]} with ${downText(outages[0]!)}`;
  }
  return `DISRUPTIVE: draining ${nodes} leaves ${plural(workloads.size, 'workload')} with replicas down`;
}

/** "Warning: 3 pods are deleted for good, …": what the drain destroys, right under the verdict. */
export function warningLines(plan: DrainPlan): string[] {
  return plan.warnings.map((w) => `Warning: ${w.message}`);
}

/**
 * Why a pod lands where it does, in one line: why its outcome is unknown, else the outcome's reason, else
 * kubectl's filter reason.
 */
export function podWhy(pod: PodPlan): string {
  return pod.outcomeUnknown ?? (pod.outcomeReason || pod.reason);
}

/** "demo/hello (1 allowed)" for each budget guarding the pod. */
export function podBudgets(pod: PodPlan): string {
  return pod.pdbs.map((b) => `${qualified(b)} (${b.disruptionsAllowed} allowed)`).join(', ');
}

export interface ReasonGroup {
  readonly reason: string;
  readonly pods: readonly string[];
}

/**
 * Pods sharing a reason on one line, as kubectl's PodDeleteList prints "<message>: ns/a, ns/b". Used for
 * skipped and refused pods, where the reason matters more than each pod.
 */
export function groupByReason(pods: readonly PodPlan[]): ReasonGroup[] {
  const byReason = new Map<string, string[]>();
  for (const pod of pods) {
    const reason = podWhy(pod) || 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), qualified(pod)]);
  }
  return [...byReason].map(([reason, names]) => ({ reason, pods: names }));
}

/** What the drain does with the pod, in a few words. */
export function drainFate(pod: PodPlan): string {
  switch (pod.action) {
    case 'skip':
      return 'left on the node';
    case 'delete':
      return 'deleted';
    case 'refuse':
      return 'refused';
    case 'evict':
      if (pod.outcomeUnknown !== undefined) return 'unknown: may never be evicted';
      if (pod.waveUnknown !== undefined && pod.wave !== null) return `evicted in wave ${pod.wave} or another (unknown)`;
      if (pod.outcome === 'blocked') return rescuedFate(pod) ?? 'blocked';
      if (pod.outcome === 'waits') return pod.wave === null ? 'evicted after a wait' : `evicted in wave ${pod.wave}`;
      return 'evicted at once';
  }
}

/**
 * A pod its budget never lets go that a strategy takes out: "evicted after its surge replica (at 7s)",
 * "deleted by --escalate-after (at 5m)". Null for any other pod.
 */
function rescuedFate(pod: PodPlan): string | null {
  const strategy = rescuedBy(pod);
  if (strategy === null) return null;
  const at = pod.eta ? ` (at ${formatEtaSeconds(pod.eta.evictedAfterSeconds)})` : '';
  return strategy === '--surge' ? `evicted after its surge replica${at}` : `deleted by --escalate-after${at}`;
}

/** What a NoExecute taint does to the pod: at once, after its tolerationSeconds, or never. */
export function taintFate(afterSeconds: number | null): string {
  if (afterSeconds === null) return 'never deleted';
  if (afterSeconds <= 0) return 'deleted at once';
  return `deleted after ${formatSeconds(afterSeconds)}`;
}

export interface BudgetLine {
  readonly name: string;
  readonly allowed: string;
  readonly healthy: string;
  readonly drained: string;
  readonly waves: string;
  readonly tone: Tone;
  /** Why this budget stands out (never allows, stale status), or empty. */
  readonly note: string;
}

/**
 * One budget as the views show it: allowed now, healthy against desired, and the waves it imposes. A
 * budget that never allows an eviction but whose drained pods a strategy takes out says which.
 */
export function budgetLine(budget: BudgetPlan, pods: readonly PodPlan[] = []): BudgetLine {
  const strategies = new Set(
    budget.drainedPods.map((key) => {
      const pod = pods.find((p) => qualified(p) === key);
      return pod ? rescuedBy(pod) : null;
    }),
  );
  const rescued = strategies.size === 1 ? [...strategies][0] : null;
  const notes: string[] = [];
  if (budget.neverAllows) notes.push(budget.neverAllows);
  if (budget.stale) notes.push('status not yet observed by the disruption controller: evictions refused until it is');
  const tone: Tone = budget.neverAllows ? 'bad' : budget.disruptionsAllowed === 0 || budget.stale ? 'warn' : 'ok';
  return {
    name: qualified(budget),
    allowed: String(budget.disruptionsAllowed),
    healthy: `${budget.currentHealthy}/${budget.desiredHealthy}`,
    drained: plural(budget.drainedPods.length, 'pod'),
    waves: budget.neverAllows
      ? rescued
        ? `never: ${rescued}`
        : 'never'
      : budget.waves <= 1
        ? plural(budget.waves, 'wave')
        : `${plural(budget.waves, 'wave')} of ${budget.perWave}`,
    tone,
    note: notes.join('; '),
  };
}

export interface ReplacementLine {
  readonly pod: string;
  readonly tone: Tone;
  /** "k8s-node-2", or the scheduler's FailedScheduling message. */
  readonly placement: string;
  readonly rejected: readonly { readonly node: string; readonly reasons: string }[];
}

/** Pods the drain removes that something recreates, with where the replacement would go. */
export function replacementLines(plan: DrainPlan): ReplacementLine[] {
  return plan.pods
    .filter((p) => p.action === 'evict' || p.action === 'delete')
    .flatMap((pod) => {
      const r = pod.replacement;
      if (r === null) return [];
      const where = replacementPlacement(r);
      // A blocked pod's replacement says whether lifting the block would be enough.
      const placement = r.whenUnblocked ? `once unblocked: ${where}` : where;
      return [
        {
          pod: qualified(pod),
          tone: r.unknown || r.preemption ? ('warn' as const) : r.schedulable ? ('ok' as const) : ('bad' as const),
          placement,
          rejected: r.rejected.map((n) => ({ node: n.node, reasons: n.reasons.join('; ') })),
        },
      ];
    });
}

/** Where a replacement goes: its node, "unknown" and why, or why it has none (until which node returns). */
function replacementPlacement(r: ReplacementPlan): string {
  if (r.unknown) return `unknown: ${r.unknown}`;
  if (r.preemption) return `-> ${r.preemption.node}, preempting ${preemptionVictims(r.preemption)}`;
  if (r.schedulable) return r.placedOn ?? r.nodes.join(', ');
  if (r.untilNodeReturns) return `no node until ${r.untilNodeReturns.join(' or ')} returns: ${r.message}`;
  return r.message;
}

/**
 * Pods the drain removes although they asked autoscalers not to disrupt them, each with its annotations:
 * kubectl drain reads neither annotation, so the operator hears it here, before the drain.
 */
export function optOutSection(plan: DrainPlan): { title: string; rows: string[][] } {
  const pods = plan.pods.filter((p) => p.disruptionOptOut);
  if (pods.length === 0) return { title: '', rows: [] };
  const does = pods.every((p) => p.action === 'delete') ? 'deletes' : 'evicts';
  return {
    title: `Asked not to be disrupted (${pods.length}): autoscalers leave these pods alone, kubectl drain ${does} them anyway`,
    rows: pods.map((p) => [qualified(p), p.disruptionOptOut!.annotations.join(', ')]),
  };
}

/** Whether the admission plan has anything of its own to show: a denial, a warning, an unknown, a webhook. */
function rowsOf(a: DrainPlan['pods'][number]['admission']): boolean {
  if (!a) return false;
  return a.denied !== undefined || a.warnings.length > 0 || a.unknown.length > 0 || (a.webhooks?.length ?? 0) > 0;
}

/**
 * What the API server's admission chain answers the drain's requests, pod by pod: the denials (with
 * whether --disable-eviction would pass), the warnings it sends back, the policies the plan cannot judge.
 */
export function admissionSection(plan: DrainPlan): { title: string; rows: string[][]; tones: Tone[] } {
  const rows: string[][] = [];
  const tones: Tone[] = [];
  // Dry runs admitted as predicted, of pods nothing else in the chain concerns (at most a binding that read
  // params, which is a caveat): one row for them all.
  const plain = plan.pods.filter(
    (p) =>
      p.serverDryRun?.answer === 'admitted' &&
      p.serverDryRun.agrees &&
      !p.serverDryRun.warnings &&
      !rowsOf(p.admission),
  );
  const plainSet = new Set(plain);
  for (const p of plan.pods) {
    const a = p.admission;
    const add = (text: string, tone: Tone) => {
      rows.push([qualified(p), text]);
      tones.push(tone);
    };
    if (plainSet.has(p)) continue;
    if (p.serverDryRun) add(p.serverDryRun.text, p.serverDryRun.agrees ? 'muted' : 'bad');
    // The warnings the API server sent, and those the plan predicts it would (each once).
    const warnings = new Set([...(p.serverDryRun?.warnings ?? []), ...(a?.warnings ?? [])]);
    for (const w of warnings) add(`Warning: ${w}`, 'warn');
    if (!a) continue;
    if (a.denied) add(`denied: ${a.denied.text} (HTTP ${a.denied.code})`, 'bad');
    for (const d of a.deniedAlso ?? [])
      add(`or denied: ${d.text} (HTTP ${d.code}): the API server names one denying policy, in no set order`, 'bad');
    for (const u of a.unknown) add(`unknown: ValidatingAdmissionPolicy '${u.policy}': ${u.why}`, 'warn');
    for (const w of a.webhooks ?? [])
      if (!a.denied || a.denied.name !== w.name) add(w.text, w.answer === 'admit' ? 'muted' : 'warn');
  }
  const count = new Set(rows.map((r) => r[0])).size + plain.length;
  if (plain.length === 1) rows.push([qualified(plain[0]!), plain[0]!.serverDryRun!.text]);
  else if (plain.length > 1) rows.push([`${plain.length} pods`, `the API server's dry run: admitted each eviction`]);
  if (plain.length > 0) tones.push('muted');
  return {
    title: rows.length === 0 ? '' : `Admission (${count}): what the API server's admission chain answers the drain`,
    rows,
    tones,
  };
}

/**
 * The pods a replacement preempts, each with the budgets its deletion breaks and where its own
 * replacement goes: "shop/batch-1 (priority 0; breaks budget shop/batch): its replacement -> n3".
 */
function preemptionVictims(p: PreemptionPlan): string {
  const victims = p.victims.map((v) => {
    const budgets = v.budgetsBroken.length > 0 ? `; breaks budget ${v.budgetsBroken.join(', ')}` : '';
    const own = v.replacement;
    const fate =
      v.controller === null
        ? 'deleted for good (nothing recreates it)'
        : own === null
          ? 'its replacement is not placed'
          : own.schedulable
            ? `its replacement -> ${own.placedOn ?? 'unknown'}`
            : `no node for its replacement: ${own.message}`;
    return `${v.namespace}/${v.name} (priority ${v.priority}${budgets}): ${fate}`;
  });
  const tie = p.tiedWith.length > 0 ? ` (${p.tiedWith.join(', ')} rank alike: the scheduler picks one at random)` : '';
  return `${victims.join('; ')} on ${p.node}${tie}`;
}

/** Pods the drain removes that no controller recreates: they are gone for good. */
export function unreplacedPods(plan: DrainPlan): string[] {
  return plan.pods
    .filter((p) => (p.action === 'evict' || p.action === 'delete') && p.controller === null)
    .map(qualified);
}

export interface FateComparison {
  readonly taint: string;
  readonly drain: string;
  readonly tone: Tone;
  readonly pods: readonly string[];
}

/**
 * Drain and NoExecute taint side by side, grouped by (what the taint does, what the drain does) so a node
 * of fifty pods stays a handful of rows. Red where the taint deletes a pod the drain would hold back.
 */
export function noExecuteComparison(plan: DrainPlan): FateComparison[] {
  const rows = new Map<string, { taint: string; drain: string; tone: Tone; pods: string[]; order: number }>();
  for (const pod of plan.pods) {
    const taint = taintFate(pod.noExecute.afterSeconds);
    const drain = drainFate(pod);
    const heldBackByDrain = pod.action === 'skip' || pod.action === 'refuse' || pod.outcome !== 'immediate';
    const tone: Tone = pod.noExecute.afterSeconds === null ? 'muted' : heldBackByDrain ? 'bad' : 'ok';
    const key = `${taint}\u0000${drain}`;
    const order = pod.noExecute.afterSeconds ?? Number.MAX_SAFE_INTEGER;
    const row = rows.get(key) ?? { taint, drain, tone, pods: [], order };
    row.pods.push(qualified(pod));
    rows.set(key, row);
  }
  return [...rows.values()]
    .sort((a, b) => a.order - b.order)
    .map(({ taint, drain, tone, pods }) => ({ taint, drain, tone, pods }));
}

/** "demo/hello: 2 pods deleted while 0 disruptions are allowed". */
export function budgetBreaches(plan: DrainPlan): string[] {
  return plan.noExecute.budgetsBroken.map(
    (b) =>
      `${qualified(b)}: ${plural(b.pods.length, 'pod')} deleted while ${plural(b.disruptionsAllowed, 'disruption')} ${
        b.disruptionsAllowed === 1 ? 'is' : 'are'
      } allowed (${listNames(b.pods)})`,
  );
}

/**
 * Blocked and waiting pods are read one by one: each has its own budget, wave and reason. The others
 * share a handful of reasons, so they read best grouped by reason, as kubectl's PodDeleteList prints them.
 */
export function isPerPodGroup(key: PodGroupKey): boolean {
  return key === 'rescued' || key === 'unknown' || key === 'blocked' || key === 'waits';
}

/**
 * A group's rows: [pod, wave?, budgets, why] per pod for blocked and waiting pods; one single-cell row
 * "<reason>: ns/a, ns/b" per reason for the others.
 */
export function podGroupRows(group: PodGroup): string[][] {
  // kubectl drain's own words: "cannot delete <reason>: ns/a, ns/b".
  if (group.key === 'refused') {
    return groupByReason(group.pods).map((r) => [`cannot delete ${r.reason}: ${listNames(r.pods, 6)}`]);
  }
  if (group.key === 'held') return [[listNames(group.pods.map(qualified), 6)]];
  if (!isPerPodGroup(group.key)) {
    return groupByReason(group.pods).map((r) => [`${r.reason}: ${listNames(r.pods, 6)}`]);
  }
  return group.pods.map((pod) => {
    const wave = pod.outcome === 'waits' && pod.wave !== null ? [`wave ${pod.wave}`] : [];
    return [qualified(pod), ...wave, podBudgets(pod) || 'no budget', podWhy(pod)];
  });
}

export const BUDGET_HEADER = ['NAME', 'ALLOWED', 'HEALTHY/DESIRED', 'ON DRAINED NODES', 'WAVES'];

export function budgetRow(b: BudgetLine): string[] {
  return [b.name, b.allowed, b.healthy, b.drained, b.waves];
}

export const COMPARISON_HEADER = ['TAINT', 'DRAIN', 'PODS'];

export function comparisonRow(c: FateComparison): string[] {
  return [c.taint, c.drain, listNames(c.pods)];
}

/** A replacement's placement in a few words: "-> k8s-node-2", "unknown: why", or the scheduler's message. */
export function placementText(line: ReplacementLine): string {
  if (line.tone === 'ok') return `-> ${line.placement}`;
  return line.tone === 'warn' ? line.placement : `unschedulable: ${line.placement}`;
}

/**
 * The eviction-order groups, when there is more than one: a title naming what orders them, and one line
 * per group ("1. order -5: shop/front"). Empty for kubectl's all at once.
 */
export function orderSection(plan: DrainPlan): { title: string; lines: string[] } {
  const order = plan.order;
  if (!order || order.groups.length <= 1) return { title: '', lines: [] };
  const what = order.by === 'priority' ? 'priority' : 'order';
  const basis =
    order.by === 'priority' ? 'pod priority, lowest first' : 'annotation maint.kubectl.io/drain-order, lowest first';
  return {
    title: `Eviction order (${order.groups.length} groups by ${basis}; each gone before the next starts)`,
    lines: order.groups.map((g) => `${g.index}. ${what} ${g.key}: ${g.pods.join(', ')}`),
  };
}

/** Seconds to one decimal below a minute ("5.2s"), kubectl's ages beyond. */
export function formatEtaSeconds(seconds: number): string {
  return seconds < 60 ? `${Math.round(seconds * 10) / 10}s` : formatSeconds(seconds);
}

/**
 * The estimate: a title with the total, one line per wave (when it starts, its pods, what frees the next
 * wave and why), and the basis. Empty when nothing is evicted.
 */
export function etaSection(plan: DrainPlan): { title: string; lines: string[] } {
  const eta = plan.eta;
  const steps = eta?.steps ?? [];
  if (!eta || (eta.waves.length === 0 && steps.length === 0)) return { title: '', lines: [] };
  const title =
    eta.totalSeconds === null
      ? 'Estimate: none, the drain cannot finish'
      : `Estimate: ${eta.uncounted ? 'at least' : 'about'} ${formatEtaSeconds(eta.totalSeconds)} from the first eviction until the last pod is gone`;
  const grouped = new Set([...eta.waves, ...steps].map((w) => w.group)).size > 1;
  const at = (group: number, seconds: number) => `${grouped ? `group ${group}, ` : ''}at ${formatEtaSeconds(seconds)}`;
  const waves = eta.waves.map((w, i) => {
    const last = i === eta.waves.length - 1;
    const then = last
      ? 'then each pod is gone within its grace period'
      : `next wave after ${formatEtaSeconds(w.freesAfterSeconds)}: ${w.basis}`;
    return {
      start: w.startsAfterSeconds,
      line: `wave ${w.wave} (${at(w.group, w.startsAfterSeconds)}): ${listNames(w.pods)}; ${then}`,
    };
  });
  const strategySteps = steps.map((s) => ({ start: s.startsAfterSeconds, line: `${stepWords(s, at)}` }));
  const timeline = [...waves, ...strategySteps].sort((a, b) => a.start - b.start).map((s) => s.line);
  const uncounted = eta.uncounted && eta.totalSeconds !== null ? [`not counted: ${eta.uncounted.text}`] : [];
  return { title, lines: [...timeline, ...uncounted, ...eta.basis.map((b) => `basis: ${b}`)] };
}

/**
 * A strategy's step of the estimate: "surge for shop/web-1 (at 0s): its Deployment's extra replica Ready
 * after 7s, then shop/web-1 is evicted; gone by 37s".
 */
function stepWords(step: StrategyStepEta, at: (group: number, seconds: number) => string): string {
  const when = at(step.group, step.startsAfterSeconds);
  const after = formatEtaSeconds(step.removedAfterSeconds - step.startsAfterSeconds);
  const gone = `gone by ${formatEtaSeconds(step.goneAfterSeconds)}`;
  return step.strategy === 'surge'
    ? `surge for ${step.pod} (${when}): its Deployment's extra replica Ready after ${after}, then ${step.pod} is evicted; ${gone}`
    : `--escalate-after for ${step.pod} (${when}): deleted past its budget after ${after} of refusals; ${gone}`;
}
