import type { ClusterState, CycleState } from './framework.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { interPodAffinityScores } from './plugins/inter-pod-affinity-score.js';
import { NO_PREFERENCE, nodeAffinityPlugin, preferredNodeAffinity } from './plugins/node-affinity.js';
import { balancedAllocationScore, leastAllocatedScore } from './plugins/resource-scores.js';
import { defaultNormalizeScore } from './plugins/score-normalize.js';
import { intolerablePreferNoScheduleCounter } from './plugins/taint-toleration.js';
import { topologySpreadScores } from './plugins/topology-spread-score.js';

/** Where a placement lands, and the nodes that scored exactly as high. */
export interface Placement {
  readonly node: NodeInfo | null;
  /** Other feasible nodes with the same total score: kube-scheduler picks among them at random. */
  readonly tiedWith: readonly NodeInfo[];
}

/**
 * Which feasible node the replacement lands on, as the default profile scores them
 * (pkg/scheduler/apis/config/v1/default_plugins.go, v1.37): per plugin a normalized 0…100 score, times its
 * weight, summed — TaintToleration 3, NodeAffinity 2, PodTopologySpread 2, InterPodAffinity 2,
 * NodeResourcesFit (LeastAllocated) 1, NodeResourcesBalancedAllocation 1. ImageLocality (1) is left
 * out (the snapshot has no image sizes), as is VolumeBinding's capacity score for claims still to be
 * provisioned. A single feasible node is taken without scoring, as the scheduler does. Among the nodes
 * with the highest total kube-scheduler picks one at random (`selectHost`): the plan takes the first in
 * the cluster's node order and names the others in `tiedWith`.
 */
export function pickNode(
  pod: PodInfo,
  feasible: readonly NodeInfo[],
  state: CycleState,
  cluster: ClusterState,
): Placement {
  if (feasible.length <= 1) return { node: feasible[0] ?? null, tiedWith: [] };
  const totals = new Array<number>(feasible.length).fill(0);
  addScores(totals, defaultNormalizeScore(feasible.map(intolerablePreferNoScheduleCounter(pod)), true), 3);
  // Without preferred terms every node scores 0, which normalizes to 0: nothing to add.
  const preferred = preferredNodeAffinity(pod.pod);
  if (preferred !== NO_PREFERENCE) addScores(totals, defaultNormalizeScore(feasible.map(preferred), false), 2);
  addScores(totals, topologySpreadScores(pod, feasible, state.read(nodeAffinityPlugin), cluster), 2);
  addScores(totals, interPodAffinityScores(pod, feasible, cluster), 2);
  for (let i = 0; i < feasible.length; i++) {
    const node = feasible[i]!;
    totals[i]! += leastAllocatedScore(pod, node) + balancedAllocationScore(pod, node);
  }
  let best = -Infinity;
  for (const total of totals) if (total > best) best = total;
  const top = feasible.filter((_, i) => totals[i] === best);
  return { node: top[0]!, tiedWith: top.slice(1) };
}

/** Adds a plugin's normalized scores, times its weight (null: the plugin skipped, nothing to add). */
function addScores(totals: number[], scores: readonly number[] | null, weight: number): void {
  if (scores) for (let i = 0; i < totals.length; i++) totals[i]! += scores[i]! * weight;
}
