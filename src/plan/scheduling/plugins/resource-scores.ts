import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { MAX_NODE_SCORE } from './score-normalize.js';

/** The resources NodeResourcesFit and NodeResourcesBalancedAllocation score by default, each of weight 1. */
const SCORED = ['cpu', 'memory'] as const;

/**
 * NodeResourcesFit's score with the default LeastAllocated strategy (noderesources/least_allocated.go,
 * v1.37): per resource (capacity − requested) × 100 / capacity in integers, 0 when the pod would not fit,
 * averaged over cpu and memory. `requested` is the node's NonZeroRequested plus the pod's: a container
 * without a cpu or memory request counts 100m and 200Mi.
 */
export function leastAllocatedScore(pod: PodInfo, node: NodeInfo): number {
  let total = 0;
  let weights = 0;
  for (const name of SCORED) {
    const capacity = node.allocatable[name] ?? 0;
    if (capacity === 0) continue;
    const requested = (node.nonZeroRequested[name] ?? 0) + (pod.nonZeroRequests[name] ?? 0);
    total += requested > capacity ? 0 : Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
    weights++;
  }
  return weights === 0 ? 0 : Math.trunc(total / weights);
}

/**
 * NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go, v1.37): the closer the node's
 * cpu and memory fractions once the pod is added, the higher: (1 − |cpu − memory| / 2) × 100, each
 * fraction capped at 1. It counts the pods' actual requests (useRequested), not the non-zero defaults.
 */
export function balancedAllocationScore(pod: PodInfo, node: NodeInfo): number {
  const fractions: number[] = [];
  for (const name of SCORED) {
    const capacity = node.allocatable[name] ?? 0;
    if (capacity === 0) continue;
    const requested = (node.requested[name] ?? 0) + (pod.requests[name] ?? 0);
    fractions.push(Math.min(1, requested / capacity));
  }
  const std = fractions.length === 2 ? Math.abs((fractions[0]! - fractions[1]!) / 2) : 0;
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}
