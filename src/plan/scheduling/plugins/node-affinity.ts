import type { V1Pod } from '@kubernetes/client-node';
import { type FilterPlugin, type FilterResult, type ScorePlugin, unresolvable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import { type NodeMatcher, nodeSelectorMatcher, requiredNodeAffinity } from '../node-selector.js';
import { defaultNormalizeScore } from './score-normalize.js';

/** NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity, v1.37). */
export const NODE_AFFINITY_REASON = "node(s) didn't match Pod's node affinity/selector";

export function nodeAffinity(matches: NodeMatcher, node: NodeInfo): FilterResult {
  return matches(node) ? null : unresolvable(NODE_AFFINITY_REASON);
}

/** Its PreFilter parses the pod's required node affinity once per placement. */
export const nodeAffinityPlugin: FilterPlugin<NodeMatcher> = {
  name: 'NodeAffinity',
  reads: ['Node'],
  preFilter: (pod) => requiredNodeAffinity(pod.pod),
  filter: (_pod, node, matches) => nodeAffinity(matches, node),
};

/**
 * NodeAffinity's raw score: the summed weights of the pod's preferred node affinity terms the
 * node matches, normalized to the highest. A term without requirements matches no node, as when required.
 */
export function preferredNodeAffinity(pod: V1Pod): (node: NodeInfo) => number {
  const terms = (pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => ({
    weight: t.weight,
    matches: nodeSelectorMatcher([t.preference]),
  }));
  if (terms.length === 0) return NO_PREFERENCE;
  return (node) => terms.reduce((sum, t) => sum + (t.weight !== 0 && t.matches(node) ? t.weight : 0), 0);
}

/** `preferredNodeAffinity` of a pod without preferred terms: every node scores 0. */
export const NO_PREFERENCE = (_node: NodeInfo): number => 0;

/** NodeAffinity's score: without preferred terms every node scores 0, which normalizes to 0 (skipped). */
export const nodeAffinityScorePlugin: ScorePlugin = {
  name: 'NodeAffinity',
  score: (pod, feasible) => {
    const preferred = preferredNodeAffinity(pod.pod);
    return preferred === NO_PREFERENCE ? null : defaultNormalizeScore(feasible.map(preferred), false);
  },
};
