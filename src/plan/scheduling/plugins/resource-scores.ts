import { CPU, MEMORY, type NodeInfo } from '../node-info.js';
import type { ClusterState, ScorePlugin } from '../framework.js';
import type { PodInfo } from '../pod-info.js';
import { MAX_NODE_SCORE } from './score-normalize.js';

/**
 * NodeResourcesFit's score with the default LeastAllocated strategy (noderesources/least_allocated.go,
 * v1.37): per resource (capacity − requested) × 100 / capacity in integers, 0 when the pod would not fit,
 * averaged over cpu and memory (the resources scored by default, each of weight 1). `requested` is the
 * node's NonZeroRequested plus the pod's: a container without a cpu or memory request counts 100m and 200Mi.
 * Every feasible node of every placement is scored here: the two resources are read by name, no loop.
 */
export function leastAllocatedScore(pod: PodInfo, node: NodeInfo): number {
  return leastAllocatedWith(node, pod.nonZeroRequests['cpu'] ?? 0, pod.nonZeroRequests['memory'] ?? 0);
}

/** leastAllocatedScore with the pod's non-zero cpu and memory requests read already. */
function leastAllocatedWith(node: NodeInfo, podCpu: number, podMemory: number): number {
  const cpu = node.hotAllocatable[CPU]!;
  const memory = node.hotAllocatable[MEMORY]!;
  const weights = (cpu === 0 ? 0 : 1) + (memory === 0 ? 0 : 1);
  if (weights === 0) return 0;
  const requested = node.hotNonZeroRequested;
  const total = leastAllocated(cpu, requested[CPU]! + podCpu) + leastAllocated(memory, requested[MEMORY]! + podMemory);
  return Math.trunc(total / weights);
}

/** One resource's LeastAllocated score; 0 for a resource the node does not have (it is not counted). */
function leastAllocated(capacity: number, requested: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/**
 * NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go, v1.37): the closer the node's
 * cpu and memory fractions once the pod is added, the higher: (1 − |cpu − memory| / 2) × 100, each
 * fraction capped at 1. It counts the pods' actual requests (useRequested), not the non-zero defaults.
 * A node without either resource scores 100. A pod that requests neither (best-effort) is not scored
 * (PreScore skips it): 0 on every node.
 */
export function balancedAllocationScore(pod: PodInfo, node: NodeInfo): number {
  if (!pod.requests['cpu'] && !pod.requests['memory']) return 0;
  return balancedAllocationWith(node, pod.requests['cpu'] ?? 0, pod.requests['memory'] ?? 0);
}

/** balancedAllocationScore of a pod that requests cpu or memory, its requests read already. */
function balancedAllocationWith(node: NodeInfo, podCpu: number, podMemory: number): number {
  const cpu = node.hotAllocatable[CPU]!;
  const memory = node.hotAllocatable[MEMORY]!;
  if (cpu === 0 || memory === 0) return MAX_NODE_SCORE;
  const requested = node.hotRequested;
  const cpuFraction = Math.min(1, (requested[CPU]! + podCpu) / cpu);
  const memoryFraction = Math.min(1, (requested[MEMORY]! + podMemory) / memory);
  const std = Math.abs((cpuFraction - memoryFraction) / 2);
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/**
 * A score that reads only the node's sums and the pod's cpu and memory, on every feasible node: on a node
 * as the cluster state has it (no placement of this simulation there), kept per state, position and
 * requests, for every simulation of the state (the pods of a cluster share few distinct requests, and a
 * placement scores hundreds of nodes); on a node this simulation changed, worked out.
 */
function sumScores(
  plugin: string,
  feasible: readonly NodeInfo[],
  cluster: ClusterState,
  [cpu, memory]: readonly [number, number],
  score: (node: NodeInfo, cpu: number, memory: number) => number,
): number[] {
  // By the requests as numbers, not a key string made and hashed for each placement.
  const byRequests = cluster.stateMemo(`${plugin}-scores`, (nodes) => ({
    nodes,
    byCpu: new Map<number, Map<number, Int16Array>>(),
  }));
  const nodes = byRequests.nodes;
  let byMemory = byRequests.byCpu.get(cpu);
  if (!byMemory) byRequests.byCpu.set(cpu, (byMemory = new Map()));
  let kept = byMemory.get(memory);
  if (!kept) byMemory.set(memory, (kept = new Int16Array(nodes.length).fill(-1)));
  const scores = new Array<number>(feasible.length);
  for (let i = 0; i < feasible.length; i++) {
    const node = feasible[i]!;
    const at = node.position;
    const known = nodes[at] === node ? kept[at]! : -1;
    if (known >= 0) {
      scores[i] = known;
      continue;
    }
    const worked = (scores[i] = score(node, cpu, memory));
    // Scores are integers 0…100: anything else (a quantity not a number) is worked out every time.
    if (nodes[at] === node && Number.isInteger(worked) && worked >= 0 && worked <= MAX_NODE_SCORE) kept[at] = worked;
  }
  return scores;
}

/** NodeResourcesFit's score, with the LeastAllocated strategy (the default). */
export const nodeResourcesFitScorePlugin: ScorePlugin = {
  name: 'NodeResourcesFit',
  score: (pod, feasible, _state, cluster) =>
    sumScores(
      'least-allocated',
      feasible,
      cluster,
      [pod.nonZeroRequests['cpu'] ?? 0, pod.nonZeroRequests['memory'] ?? 0],
      leastAllocatedWith,
    ),
};

export const balancedAllocationScorePlugin: ScorePlugin = {
  name: 'NodeResourcesBalancedAllocation',
  score: (pod, feasible, _state, cluster) => {
    if (!pod.requests['cpu'] && !pod.requests['memory']) return feasible.map(() => 0);
    const requests = [pod.requests['cpu'] ?? 0, pod.requests['memory'] ?? 0] as const;
    return sumScores('balanced-allocation', feasible, cluster, requests, balancedAllocationWith);
  },
};
