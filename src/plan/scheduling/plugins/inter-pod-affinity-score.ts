import { scoringTerms, termMatches, type WeightedTerm } from '../affinity-term.js';
import type { ClusterState, ScorePlugin } from '../framework.js';
import { namespaceLabels } from '../namespace-labels.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { topologyDomains } from '../topology-domains.js';
import { MAX_NODE_SCORE } from './score-normalize.js';

/**
 * InterPodAffinity's score (interpodaffinity/scoring.go, v1.37). Per topology pair, the sum of:
 * the weight of each of the pod's preferred affinity terms (minus, for anti-affinity) per assigned pod it
 * selects there; the weight of each assigned pod's preferred terms that select the pod (and
 * hardPodAffinityWeight for its required affinity terms) on that pod's pair. A node scores the sum over
 * its pairs, normalized between the lowest (0) and the highest (100). Terminating pods count: the
 * scheduler's cache holds them until they are gone. Null when no term applies (the plugin skips), or
 * when every node scores alike (0 each, nothing to add).
 */
export function interPodAffinityScores(
  pod: PodInfo,
  feasible: readonly NodeInfo[],
  cluster: ClusterState,
): number[] | null {
  // Per topology key, the summed weights per domain id (topologyDomains), kept in the order keys come.
  const pairs = new Map<string, { readonly ids: Int32Array; readonly weights: Float64Array }>();
  const add = (key: string, at: number, weight: number) => {
    if (weight === 0) return;
    let pair = pairs.get(key);
    const domains = pair ? null : topologyDomains(cluster, key);
    const id = (pair?.ids ?? domains!.ids)[at]!;
    if (id < 0) return;
    if (!pair) pairs.set(key, (pair = { ids: domains!.ids, weights: new Float64Array(domains!.values.length) }));
    pair.weights[id]! += weight;
  };
  for (const term of scoringTerms(pod.pod, namespaceLabels(cluster.snapshot), false)) {
    if (term.selector === null) continue;
    const namespaces = term.allNamespaces ? cluster.namespaces() : term.namespaces;
    for (const namespace of namespaces) {
      cluster.forEachMatch(namespace, term.selector, (at) => add(term.topologyKey, at, term.weight));
    }
  }
  for (const { term, node } of cluster.scoringTermsFor(pod.namespace, pod.labels)) {
    if (termMatches(term, pod.namespace, pod.labels))
      add(term.topologyKey, node.position, (term as WeightedTerm).weight);
  }
  if (pairs.size === 0) return null;
  // Every feasible node goes through here: typed arrays read by position, no lookup by label name; the
  // highest and lowest found on the way.
  const keys = [...pairs.values()];
  const scores = new Array<number>(feasible.length);
  let max = -Infinity;
  let min = Infinity;
  let unordered = false;
  for (let i = 0; i < feasible.length; i++) {
    const at = feasible[i]!.position;
    let score = 0;
    for (let k = 0; k < keys.length; k++) {
      const { ids, weights } = keys[k]!;
      const id = ids[at]!;
      if (id >= 0) score += weights[id]!;
    }
    scores[i] = score;
    if (score > max) max = score;
    if (score < min) min = score;
    // A weight not a number (no API server admits one) leaves every node at 0.
    if (Number.isNaN(score)) unordered = true;
  }
  // Every node alike scores 0 each: nothing to add.
  if (unordered || !(max > min)) return null;
  for (let i = 0; i < scores.length; i++) scores[i] = Math.trunc((MAX_NODE_SCORE * (scores[i]! - min)) / (max - min));
  return scores;
}

export const interPodAffinityScorePlugin: ScorePlugin = {
  name: 'InterPodAffinity',
  score: (pod, feasible, _state, cluster) => interPodAffinityScores(pod, feasible, cluster),
};
