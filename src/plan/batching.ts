import type { ClusterIndex } from '../snapshot/cluster-index.js';
import { buildPlan } from './build-plan.js';
import { isRemovedByDrain } from './pool-state.js';
import type { DrainPlan, PlanOptions, PodPlan } from './types.js';

/** A batch the pool plan chose, with its drain plan against the cluster as it is when the batch starts. */
export interface ChosenBatch {
  readonly nodes: readonly string[];
  readonly plan: DrainPlan;
  /** False when even the first remaining node alone cannot be drained: the run stops there. */
  readonly acceptable: boolean;
  /** Nodes that made a bigger batch unacceptable: tried again after the others. */
  readonly deferred: readonly string[];
}

/**
 * The order the pool is taken in: the nodes with the fewest pods first. The first batch's replacements
 * can only land on nodes not yet done (so those pods move twice), which costs least when it moves the
 * fewest pods; every later batch finds the nodes done before it back in service and nearly empty, where
 * the scheduler's least-allocated scoring puts replacements. Ties by name, so the plan is repeatable.
 */
export function poolOrder(index: ClusterIndex, pool: readonly string[]): string[] {
  const pods = (node: string) => index.podsOnNode(node).length;
  return [...pool].sort((a, b) => pods(a) - pods(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Plans of one batch that may refill it with untried nodes after dropping offenders; later ones only drop. */
const REFILL_ATTEMPTS = 2;

/**
 * Chooses the next batch among `remaining` (in pool order): the first `maxUnavailable` nodes, planned
 * together; while that drain is blocked or leaves a replacement without a node, the nodes holding the
 * offending pods leave the batch (they are deferred: tried again after the others) and, for the first
 * attempts, untried nodes take their places. Filling the batch is worth it: a batch costs the operator's
 * command and the node's return (minutes), a budget wave inside a batch only a replacement's start-up
 * (seconds). When every node of the batch offends, the first one is planned alone; a single node that
 * still offends is returned as not acceptable. At most REFILL_ATTEMPTS + 2 plans per batch.
 */
export function chooseBatch(
  index: ClusterIndex,
  remaining: readonly string[],
  maxUnavailable: number,
  options: PlanOptions,
): ChosenBatch {
  let chosen = remaining.slice(0, maxUnavailable);
  let untried = remaining.slice(maxUnavailable);
  const deferred: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const plan = buildPlan(index, { ...options, nodes: chosen });
    const offenders = offendingNodes(plan);
    if (offenders.length === 0) return { nodes: chosen, plan, acceptable: true, deferred };
    if (chosen.length === 1) return { nodes: chosen, plan, acceptable: false, deferred };
    const kept = chosen.filter((n) => !offenders.includes(n));
    deferred.push(...offenders);
    if (attempt < REFILL_ATTEMPTS) {
      const refill = untried.slice(0, maxUnavailable - kept.length);
      untried = untried.slice(refill.length);
      kept.push(...refill);
    }
    if (kept.length === 0) kept.push(deferred.splice(deferred.indexOf(offenders[0]!), 1)[0]!);
    chosen = kept;
  }
}

/** Nodes (in plan order) of the pods that make a batch unacceptable: refused, never evicted, or a replacement that finds no node. */
export function offendingNodes(plan: DrainPlan): string[] {
  const offending = plan.pods.filter(isOffending).map((p) => p.node);
  return plan.nodes.filter((n) => offending.includes(n));
}

function isOffending(p: PodPlan): boolean {
  if (p.action === 'refuse' || p.outcome === 'blocked') return true;
  return isRemovedByDrain(p) && p.replacement !== null && !p.replacement.schedulable;
}
