import type { ClusterIndex } from '../snapshot/cluster-index.js';
import type { AuditCause, AuditCauseKind, AuditEffect, AuditNode, AuditWorkload, ClusterAudit } from './audit-types.js';
import { buildPlan } from './build-plan.js';
import { isRemovedByDrain } from './pool-state.js';
import type { BudgetPlan, DrainPlan, PlanOptions, PodPlan, ReadVerdict, Verdict } from './types.js';
import { plural } from '../wording.js';

/**
 * The cluster audit: every node's drain planned on its own, as `kubectl maint plan NODE` with the same
 * options plans it, against one cluster state, and the workloads that hold nodes back gathered from the
 * plans' structure (which pod is refused by which filter, which budget never allows, which replacement
 * finds no node), never from their wording. Every plan reads the same index, so the work kept per cluster
 * state (the scheduler's cache and its memos, the label and owner indexes) is done once for all nodes;
 * each plan is reduced to its node's findings before the next is built, so memory holds one plan at a time.
 * Pure: snapshot and options in, audit out.
 */
export function buildAudit(index: ClusterIndex, options: PlanOptions): ClusterAudit {
  return auditOf([...new Set(options.nodes)].map((node) => auditNode(index, options, node)));
}

/**
 * One node's findings: its drain planned on its own (`options.nodes` is not read). The plan lists the nodes
 * that refused a replacement only where it found none: the findings read no node list.
 */
export function auditNode(index: ClusterIndex, options: PlanOptions, node: string): NodeFindings {
  return auditPlan(buildPlan(index, { ...options, nodes: [node] }, 'unplaced'));
}

/** What the audit keeps of one node's plan: its verdict and the problems its workloads cause. */
export interface NodeFindings {
  readonly node: Omit<AuditNode, 'workloads'>;
  readonly problems: readonly Problem[];
}

/** One workload's cause on one node. */
export interface Problem {
  readonly workload: { readonly namespace: string; readonly kind: string; readonly name: string };
  readonly kind: AuditCauseKind;
  readonly effect: AuditEffect;
  readonly pods: readonly string[];
  readonly budget: string | null;
  readonly flag: string | null;
  readonly detail: string;
  readonly until?: 'node-returns' | 'for-good';
}

/** One node's plan reduced to its findings (the plan of that node alone). */
export function auditPlan(plan: DrainPlan): NodeFindings {
  const [name = ''] = plan.nodes;
  return {
    node: {
      name,
      verdict: plan.verdict,
      assumedVerdict: plan.assumedVerdict,
      verdictReasons: plan.verdictReasons,
      evicted: plan.pods.filter(isRemovedByDrain).length,
    },
    problems: [...refusals(plan), ...blocks(plan), ...outages(plan)],
  };
}

const workloadOf = (p: PodPlan) => ({
  namespace: p.namespace,
  kind: p.controller?.kind ?? 'Pod',
  name: p.controller?.name ?? p.name,
});
const podName = (p: { readonly namespace: string; readonly name: string }) => `${p.namespace}/${p.name}`;
const keyOf = (w: Problem['workload']) => `${w.namespace}/${w.kind}/${w.name}`;

/** Refused pods, per workload: the plan names the flag that lets them go (`override`, set by the filter). */
function refusals(plan: DrainPlan): Problem[] {
  const refused = plan.pods.filter((p) => p.action === 'refuse');
  return [...Map.groupBy(refused, (p) => `${keyOf(workloadOf(p))}\u0000${p.filter}\u0000${p.reason}`).values()].map(
    (pods) => {
      const first = pods[0]!;
      return {
        workload: workloadOf(first),
        kind: 'refused',
        effect: 'blocks',
        pods: pods.map(podName),
        budget: null,
        flag: first.override ?? null,
        detail: first.reason,
      };
    },
  );
}

/**
 * Pods the drain cannot get out (blocked, or whose fate is unknown), per workload and cause. Pods held only
 * because kubectl refuses their node, or behind an earlier eviction-order group that cannot finish, are
 * not their workload's doing: the refusal or that group is.
 */
function blocks(plan: DrainPlan): Problem[] {
  const refusedNodes = new Set(plan.pods.filter((p) => p.action === 'refuse').map((p) => p.node));
  const held = plan.pods.filter(
    (p) => p.action !== 'refuse' && !refusedNodes.has(p.node) && (p.outcome === 'blocked' || p.outcomeUnknown),
  );
  const firstStuckGroup = Math.min(...held.map((p) => p.orderGroup ?? 1));
  const own = held.filter((p) => (p.orderGroup ?? 1) === firstStuckGroup);
  const budgets = new Map(plan.budgets.map((b) => [`${b.namespace}/${b.name}`, b] as const));
  const unplaced = plan.pods.filter((p) => p.replacement !== null && !p.replacement.schedulable);
  const causes = own.map((p) => ({ pod: p, ...blockCause(p, budgets, unplaced, plan) }));
  const groups = Map.groupBy(
    causes,
    (c) => `${keyOf(workloadOf(c.pod))}\u0000${c.kind}\u0000${c.budget}\u0000${c.flag}`,
  );
  return [...groups.values()].map((list) => {
    const { pod, kind, budget, flag, detail } = list[0]!;
    return {
      workload: workloadOf(pod),
      kind,
      effect: 'blocks',
      pods: list.map((c) => podName(c.pod)),
      budget,
      flag,
      detail,
    };
  });
}

/** Why a held pod cannot go, most specific first. */
function blockCause(
  pod: PodPlan,
  budgets: ReadonlyMap<string, BudgetPlan>,
  unplaced: readonly PodPlan[],
  plan: DrainPlan,
): Pick<Problem, 'kind' | 'budget' | 'flag' | 'detail'> {
  const denied = pod.admission?.denied;
  if (denied) return { kind: 'admission-denied', budget: null, flag: null, detail: denied.text };
  if (pod.outcomeUnknown !== undefined) {
    return {
      kind: 'unknown',
      budget: pod.pdbs[0] ? podName(pod.pdbs[0]) : null,
      flag: null,
      detail: pod.outcomeUnknown,
    };
  }
  if (pod.pdbs.length > 1) {
    const names = pod.pdbs.map(podName);
    return {
      kind: 'two-budgets',
      budget: names.join(', '),
      flag: null,
      detail: `budgets ${names.join(' and ')} select it`,
    };
  }
  const ref = pod.pdbs[0];
  const budget = ref ? budgets.get(podName(ref)) : undefined;
  if (!ref || !budget) return { kind: 'other', budget: null, flag: null, detail: pod.outcomeReason };
  const key = podName(ref);
  if (budget.neverAllows !== null) {
    const kind = budget.expectedPods <= 1 ? 'single-replica' : 'budget-never-allows';
    return { kind, budget: key, flag: null, detail: budget.neverAllows };
  }
  // The budget frees up once a replacement runs: one that finds no node keeps it spent.
  const noRoom = unplaced.find((o) => o.pdbs.some((b) => podName(b) === key));
  if (noRoom) return { kind: 'no-room', budget: key, flag: null, detail: noRoom.replacement!.message };
  const surged =
    pod.controller?.kind === 'Deployment' &&
    (plan.waysOut?.surge ?? []).includes(`${pod.namespace}/${pod.controller.name}`);
  return {
    kind: 'budget-unhealthy',
    budget: key,
    flag: surged ? `--surge=${pod.namespace}/${pod.controller!.name}` : null,
    detail:
      `budget ${key} allows ${plural(budget.disruptionsAllowed, 'disruption')} (needs ${budget.desiredHealthy} ` +
      `healthy, has ${budget.currentHealthy}) and the drain frees none`,
  };
}

/** Workloads the drain leaves with replicas down (the plan's outages). */
function outages(plan: DrainPlan): Problem[] {
  return (plan.outages ?? []).map((o) => ({
    workload: { namespace: o.namespace, kind: o.kind, name: o.name },
    kind: 'no-room',
    effect: 'disrupts',
    pods: o.pods,
    budget: null,
    flag: null,
    detail: o.message,
    until: o.until,
  }));
}

/** Known verdicts from least to most severe (as the pool plan ranks batches). */
const SEVERITY: readonly Verdict[] = ['clear', 'slow', 'incomplete', 'disruptive', 'blocked'];

/** The audit of the nodes' findings: workloads merged over the nodes and ranked, the worst verdict. */
export function auditOf(findings: readonly NodeFindings[]): ClusterAudit {
  const workloads = rankedWorkloads(findings);
  const heldBy = new Map<string, string[]>();
  for (const w of workloads)
    for (const node of [...w.blocks, ...w.disrupts]) heldBy.set(node, [...(heldBy.get(node) ?? []), w.id]);
  const nodes = findings.map((f) => ({ ...f.node, workloads: heldBy.get(f.node.name) ?? [] }));
  const worst = <V extends Verdict>(list: readonly V[], floor: V) =>
    list.reduce((w, v) => (SEVERITY.indexOf(v) > SEVERITY.indexOf(w) ? v : w), floor);
  const verdict = worst(
    nodes.map((n) => n.verdict),
    'clear',
  );
  const verdicts = Object.fromEntries(SEVERITY.map((v) => [v, nodes.filter((n) => n.verdict === v).length])) as Record<
    Verdict,
    number
  >;
  return {
    kind: 'ClusterAudit',
    apiVersion: 'maint.kubectl.io/v1alpha1',
    verdict,
    assumedVerdict: worst<ReadVerdict>(
      nodes.map((n) => n.assumedVerdict),
      'clear',
    ),
    verdictReasons: auditReasons(nodes.length, verdicts, workloads),
    verdicts,
    nodes,
    workloads,
  };
}

function rankedWorkloads(findings: readonly NodeFindings[]): AuditWorkload[] {
  const byWorkload = new Map<string, Array<{ node: string; problem: Problem }>>();
  for (const f of findings) {
    for (const problem of f.problems) {
      const id = keyOf(problem.workload);
      byWorkload.set(id, [...(byWorkload.get(id) ?? []), { node: f.node.name, problem }]);
    }
  }
  const workloads = [...byWorkload].map(([id, list]): AuditWorkload => {
    const { workload } = list[0]!.problem;
    const causes = [...Map.groupBy(list, ({ problem: p }) => [p.kind, p.effect, p.budget, p.flag].join('\u0000'))].map(
      ([, same]) => mergedCause(same),
    );
    const blocks = nodesOf(causes.filter((c) => c.effect === 'blocks'));
    const disrupts = nodesOf(causes.filter((c) => c.effect === 'disrupts')).filter((n) => !blocks.includes(n));
    const budgets = [...new Set(causes.flatMap((c) => (c.budget ? c.budget.split(', ') : [])))];
    return { id, ...workload, budgets, blocks, disrupts, causes };
  });
  return workloads.sort(
    (a, b) =>
      b.blocks.length - a.blocks.length ||
      b.disrupts.length - a.disrupts.length ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function nodesOf(causes: readonly AuditCause[]): string[] {
  return [...new Set(causes.flatMap((c) => c.nodes))];
}

/** One cause over every node it holds: the pods of all of them, the first node's detail. */
function mergedCause(same: ReadonlyArray<{ node: string; problem: Problem }>): AuditCause {
  const { problem } = same[0]!;
  const until = same.some((s) => s.problem.until === 'for-good') ? 'for-good' : problem.until;
  return {
    kind: problem.kind,
    effect: problem.effect,
    nodes: [...new Set(same.map((s) => s.node))],
    pods: [...new Set(same.flatMap((s) => s.problem.pods))],
    budget: problem.budget,
    flag: problem.flag,
    detail: problem.detail,
    wayOut: wayOut(problem),
    ...(until ? { until } : {}),
  };
}

/** What accepting each of kubectl's override flags costs. */
const FLAG_COSTS: Readonly<Record<string, string>> = {
  '--force': 'if losing those pods for good is acceptable (nothing recreates them)',
  '--ignore-daemonsets': 'to leave DaemonSet pods on the node (their controller keeps them there)',
  '--delete-emptydir-data': 'if losing their emptyDir data is acceptable',
};

/** The way out of a cause, in words: the flag, or what the workload's owner must change. */
export function wayOut(p: Pick<Problem, 'workload' | 'kind' | 'budget' | 'flag' | 'detail'>): string {
  const workload = `${p.workload.kind} ${p.workload.namespace}/${p.workload.name}`;
  switch (p.kind) {
    case 'refused':
      return p.flag
        ? `add ${p.flag} ${FLAG_COSTS[p.flag] ?? 'if that is acceptable'}`
        : 'kubectl refuses the pod and no flag overrides it: its owner moves or removes it';
    case 'budget-never-allows':
      return `the owner relaxes budget ${p.budget} so that it allows a disruption`;
    case 'single-replica':
      return `the owner runs ${workload} with more than one replica, or lets budget ${p.budget} allow a disruption`;
    case 'two-budgets':
      return `the owner keeps one budget per pod: ${p.budget} both select it, and the Eviction API refuses such a pod`;
    case 'admission-denied':
      return 'the owner of the policy or webhook that denies it admits the eviction, or the pod is changed so that it does not match';
    case 'budget-unhealthy':
      return p.flag
        ? `add ${p.flag} (an extra Ready replica first, then the eviction its budget allows)`
        : `the owner makes the workload's other pods Ready, or scales it up, so that budget ${p.budget} allows a disruption`;
    case 'no-room':
      return 'make room for the replacement (free capacity, add or uncordon a node) or the owner relaxes the constraint the scheduler names';
    case 'unknown':
      return 'plan the node again once the replacement its budget waits on is running';
    case 'other':
      return "see the node's plan";
  }
}

/** The count of each verdict, then the workloads holding most nodes (the rest are in `workloads`). */
function auditReasons(
  nodes: number,
  verdicts: Readonly<Record<Verdict, number>>,
  workloads: readonly AuditWorkload[],
): string[] {
  const counts = [...SEVERITY]
    .reverse()
    .filter((v) => verdicts[v] > 0)
    .map((v) => `${verdicts[v]} ${v}`);
  const shown = workloads.slice(0, REASON_WORKLOADS).map((w) => {
    const held = [
      ...(w.blocks.length > 0 ? [`blocks ${plural(w.blocks.length, 'node')}`] : []),
      ...(w.disrupts.length > 0 ? [`disrupts ${plural(w.disrupts.length, 'node')}`] : []),
    ].join(' and ');
    return `${w.kind} ${w.namespace}/${w.name} ${held}: ${w.causes[0]!.wayOut}`;
  });
  const more = workloads.length - shown.length;
  return [
    `${plural(nodes, 'node')} planned one by one: ${counts.join(', ')}`,
    ...shown,
    ...(more > 0 ? [`and ${plural(more, 'more workload')} (see workloads)`] : []),
  ];
}

/** How many workloads the reasons name; the rest are in `workloads`. */
const REASON_WORKLOADS = 5;
