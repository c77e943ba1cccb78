import type { ClusterState, CycleState } from './framework.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { SCORE_PLUGINS } from './registry.js';

/** Where a placement lands, and the nodes that scored exactly as high. */
export interface Placement {
  readonly node: NodeInfo | null;
  /** Other feasible nodes with the same total score: kube-scheduler picks among them at random. */
  readonly tiedWith: readonly NodeInfo[];
}

/**
 * Which feasible node the replacement lands on, as the default profile scores them
 * (SCORE_PLUGINS, weights in profile.ts): per plugin a normalized 0…100 score, times its weight,
 * summed. A single feasible node is taken without scoring, as the scheduler does. Among the nodes
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
  for (const { plugin, weight } of SCORE_PLUGINS)
    addScores(totals, plugin.score(pod, feasible, state, cluster), weight);
  let best = -Infinity;
  for (const total of totals) if (total > best) best = total;
  const top = feasible.filter((_, i) => totals[i] === best);
  return { node: top[0]!, tiedWith: top.slice(1) };
}

/** Adds a plugin's normalized scores, times its weight (null: the plugin skipped, nothing to add). */
function addScores(totals: number[], scores: readonly number[] | null, weight: number): void {
  if (scores) for (let i = 0; i < totals.length; i++) totals[i]! += scores[i]! * weight;
}
