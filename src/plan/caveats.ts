import type { Snapshot, SnapshotKind } from '../snapshot/types.js';

/** What the plan's own rules leave out (the scheduling simulation lists its own). */
export const UNMODELLED_PLAN_RULES: readonly string[] = [
  'Readiness: a replacement that finds a node is taken as Ready by the next wave; image pulls, start-up and readiness probes decide how long a wave really takes',
  'Eviction order within a budget is a race between concurrent requests; the plan admits pods in node, namespace, name order',
  'NoExecute and node-failure timelines start when the controllers see the taint: node tainting is rate-limited per zone (--node-eviction-rate 0.1 nodes/s) and the node monitor period adds up to 5s',
];

/** What each missing kind costs the plan. */
const MISSING_KIND_EFFECT: Partial<Record<SnapshotKind, string>> = {
  PodDisruptionBudget: 'budgets are unknown, so evictions the plan calls immediate may wait or be refused',
  DaemonSet: 'every DaemonSet-managed pod is assumed to have its DaemonSet',
  ReplicaSet: 'pods owned by ReplicaSets are assumed to be recreated; their Deployments are not named',
  StatefulSet: 'pods owned by StatefulSets are assumed to be recreated',
  ReplicationController: 'pods owned by ReplicationControllers are assumed to be recreated',
  Job: 'pods owned by Jobs are assumed to be recreated',
};

/** The caveat for a kind the snapshot did not read: what the plan assumed instead. */
export function missingKindCaveat(kind: SnapshotKind): string {
  return `${kind}s were not loaded: ${MISSING_KIND_EFFECT[kind] ?? 'objects of this kind are unknown'}`;
}

/**
 * Snapshot-wide caveats: missing budgets (they could select any pod), and the warnings met while
 * loading. A missing owner kind matters only for the pods it owns, so controller.ts says it per pod —
 * a snapshot with no StatefulSets at all is not worth a caveat when no drained pod has one.
 */
export function snapshotCaveats(snapshot: Snapshot): string[] {
  const budgets = snapshot.kinds.has('PodDisruptionBudget') ? [] : [missingKindCaveat('PodDisruptionBudget')];
  return [...budgets, ...snapshot.warnings.map((w) => `snapshot: ${w}`)];
}
