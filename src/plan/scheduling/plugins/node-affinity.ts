import type { V1Pod } from '@kubernetes/client-node';
import { type FilterPlugin, type FilterResult, type ScorePlugin, unresolvable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import { type NodeMatcher, nodeSelectorMatcher } from '../node-selector.js';
import { defaultNormalizeScore } from './score-normalize.js';

/** NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity, v1.37). */
export const NODE_AFFINITY_REASON = "node(s) didn't match Pod's node affinity/selector";

/**
 * `nodeaffinity.GetRequiredNodeAffinity(pod).Match` (component-helpers, v1.37): `spec.nodeSelector`
 * (every key=value on the node) AND the required node affinity, whose terms are ORed. Within a term all
 * matchExpressions and all matchFields must hold. A term with neither is dropped, so terms that are all
 * empty match no node; a term that does not parse (an operator it does not know, In without values, Gt
 * with a non-integer) never matches. Parsed by this plugin's PreFilter for its Filter, and by PodTopologySpread's for its
 * nodeAffinityPolicy, each into its own state.
 */
export function requiredNodeAffinity(pod: V1Pod): NodeMatcher {
  const selector = Object.entries(pod.spec?.nodeSelector ?? {});
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required ? nodeSelectorMatcher(required.nodeSelectorTerms) : undefined;
  return (node) => {
    if (!selector.every(([key, value]) => node.labels[key] === value)) return false;
    return terms === undefined || terms(node);
  };
}

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
