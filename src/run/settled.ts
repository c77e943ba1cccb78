import type { V1Node } from '@kubernetes/client-node';
import { UNREACHABLE_TAINT } from '../plan/node-failure.js';
import { UNSCHEDULABLE_TAINT } from '../plan/tolerations.js';
import type { DrainPlan } from '../plan/types.js';
import type { Snapshot } from '../snapshot/types.js';
import { nodePhase, runOfNode, type NodePhase } from './state.js';

/**
 * Whether the cluster has settled after the run's earlier batches, so that a batch's fresh plan judges the
 * cluster the next drain will meet rather than a moment of it: right after a batch comes back, its nodes
 * may still carry the not-ready taint and its replacements may not be Ready yet, and a plan made then can
 * call a batch blocked that drains fine a few seconds later. Pure: the runner reads the snapshots.
 */

/** The taints the node lifecycle controller puts on a node that is not Ready, and lifts once it is. */
const NOT_READY_TAINTS: ReadonlySet<string> = new Set(['node.kubernetes.io/not-ready', UNREACHABLE_TAINT.key]);

function hasNotReadyTaint(node: V1Node | undefined): boolean {
  return (node?.spec?.taints ?? []).some((t) => NOT_READY_TAINTS.has(t.key));
}

/**
 * Uncordoned, but still carrying the cordon's taint (TaintNodesByCondition): it is lifted a moment after
 * the uncordon, and until then the scheduler's TaintToleration filter keeps pods off the node, so a plan
 * made in between finds the node closed.
 */
function hasStaleCordonTaint(node: V1Node | undefined): boolean {
  return !node?.spec?.unschedulable && (node?.spec?.taints ?? []).some((t) => t.key === UNSCHEDULABLE_TAINT.key);
}

/** `namespace/Kind/name` of each workload that recreates a pod the plan evicts or deletes. */
export function workloadsMoved(plan: DrainPlan): string[] {
  return plan.pods
    .filter((p) => (p.action === 'evict' || p.action === 'delete') && p.controller)
    .map((p) => `${p.namespace}/${p.controller!.kind}/${p.controller!.name}`);
}

/**
 * Phases in which another run's node is out of service and on its way back: its drain, command or return
 * under way. Pending, done and failed nodes are not coming back by themselves.
 */
const ON_ITS_WAY: ReadonlySet<NodePhase> = new Set([
  'draining',
  'drained',
  'command-running',
  'command-done',
  'returning',
  'returned',
]);

/**
 * What the cluster still waits for, in words (empty when settled): a node back from the run that still
 * carries a not-ready taint or, uncordoned, the cordon's taint; a workload the run moved whose pods are
 * not all Ready; a node another run (not `runId`) has out of service and on its way back (runs over
 * disjoint pools share the cluster: a plan blocked while the other's node is out is planned again once it
 * is back).
 */
export function unsettled(
  snapshot: Snapshot,
  returnedNodes: ReadonlySet<string>,
  moved: ReadonlySet<string>,
  runId?: string,
): string[] {
  const waits: string[] = [];
  for (const node of snapshot.nodes) {
    const name = node.metadata?.name ?? '';
    const other = runOfNode(node);
    const phase = nodePhase(node);
    if (runId !== undefined && other && other !== runId && phase && ON_ITS_WAY.has(phase)) {
      waits.push(`node ${name} is out of service in run ${other} (${phase})`);
    }
    if (!returnedNodes.has(name)) continue;
    if (hasNotReadyTaint(node)) waits.push(`node ${name} still has a not-ready taint`);
    else if (hasStaleCordonTaint(node))
      waits.push(`node ${name} is uncordoned but still has the ${UNSCHEDULABLE_TAINT.key} taint`);
  }
  const workloads = [
    ...snapshot.deployments.map((w) => ({ kind: 'Deployment', w })),
    ...snapshot.statefulSets.map((w) => ({ kind: 'StatefulSet', w })),
    ...snapshot.replicaSets.map((w) => ({ kind: 'ReplicaSet', w })),
    ...snapshot.replicationControllers.map((w) => ({ kind: 'ReplicationController', w })),
  ];
  for (const { kind, w } of workloads) {
    const key = `${w.metadata?.namespace ?? 'default'}/${kind}/${w.metadata?.name ?? ''}`;
    if (!moved.has(key)) continue;
    const want = w.spec?.replicas ?? 1;
    const ready = w.status?.readyReplicas ?? 0;
    const current = (w.status?.observedGeneration ?? 0) >= (w.metadata?.generation ?? 0);
    if (ready < want || !current) waits.push(`${key}: ${ready} of ${want} pods Ready`);
  }
  return waits;
}
