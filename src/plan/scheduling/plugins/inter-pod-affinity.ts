import { type AffinityTerm, termMatches } from '../affinity-term.js';
import { type ClusterState, type FilterPlugin, type FilterResult, unresolvable, unschedulable } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';

/** InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity, v1.37). */
export const AFFINITY_REASON = "node(s) didn't match pod affinity rules";
export const ANTI_AFFINITY_REASON = "node(s) didn't match pod anti-affinity rules";
export const EXISTING_ANTI_AFFINITY_REASON = "node(s) didn't satisfy existing pods anti-affinity rules";

/** Said where a namespaceSelector decides a replacement's node and Namespaces were not read. */
export const NAMESPACE_SELECTOR_UNKNOWN =
  'a pod (anti-)affinity term with a namespaceSelector decides it, and Namespaces were not read (their labels are unknown)';
const NAMESPACE_SELECTOR_CAVEAT =
  'pod (anti-)affinity namespaceSelector: Namespaces were not read, so a namespaceSelector ' +
  "with requirements was taken to select the owning pod's namespace only";

/** Matching pods per topology pair: topology key, then value (no pair string made per node filtered). */
type PairCounts = Map<string, Map<string, number>>;
const countAt = (counts: PairCounts, key: string, value: string) => counts.get(key)?.get(value) ?? 0;

/** PreFilter's result (`preFilterState`, without the alpha InterPodAffinityHostnameFastPath). */
export interface AffinityState {
  readonly affinityTerms: readonly AffinityTerm[];
  readonly antiAffinityTerms: readonly AffinityTerm[];
  /** Per topology pair, pods matching ALL of the pod's required affinity terms. */
  readonly affinityCounts: PairCounts;
  /** Per topology pair, pods matching one of the pod's required anti-affinity terms (once per term). */
  readonly antiAffinityCounts: PairCounts;
  /** Per topology pair, existing pods whose required anti-affinity matches the incoming pod. */
  readonly existingAntiAffinityCounts: PairCounts;
  /** The topology keys of those pairs: a node is checked on these few keys, not on each of its labels. */
  readonly existingAntiAffinityKeys: readonly string[];
  /** The first-pod exception: the pod matches all its own affinity terms. */
  readonly matchesOwnAffinity: boolean;
  /** A term that judges the pod has a namespaceSelector the snapshot could not resolve (no Namespaces read). */
  readonly approximated: boolean;
}

/**
 * Counts once per placement, from the label index rather than a scan of every pod. Every assigned pod
 * counts, terminating ones included (the scheduler keeps them until they are gone): an evicted sibling
 * still blocks its domain for required anti-affinity while it terminates.
 */
export function interPodAffinityPreFilter(pod: PodInfo, cluster: ClusterState): AffinityState {
  const affinityTerms = pod.requiredAffinityTerms;
  const antiAffinityTerms = pod.requiredAntiAffinityTerms;
  let approximated = [...affinityTerms, ...antiAffinityTerms].some((t) => t.approximated);

  const existingAntiAffinityCounts: PairCounts = new Map();
  const existingAntiAffinityKeys = new Set<string>();
  for (const { term, node } of cluster.antiAffinityTermsFor(pod.namespace, pod.labels)) {
    if (!termMatches(term, pod.namespace, pod.labels)) continue;
    if (term.approximated) approximated = true;
    count(existingAntiAffinityCounts, node, term.topologyKey);
    existingAntiAffinityKeys.add(term.topologyKey);
  }

  const affinityCounts: PairCounts = new Map();
  if (affinityTerms.length > 0) {
    forEachTermMatch(affinityTerms[0]!, cluster, (node, namespace, labels) => {
      if (!affinityTerms.every((t) => termMatches(t, namespace, labels))) return;
      for (const t of affinityTerms) count(affinityCounts, node, t.topologyKey);
    });
  }

  const antiAffinityCounts: PairCounts = new Map();
  for (const term of antiAffinityTerms) {
    forEachTermMatch(term, cluster, (node) => count(antiAffinityCounts, node, term.topologyKey));
  }

  const matchesOwnAffinity =
    affinityTerms.length > 0 && affinityTerms.every((t) => termMatches(t, pod.namespace, pod.labels));
  if (approximated) cluster.caveat(NAMESPACE_SELECTOR_CAVEAT);
  return {
    affinityTerms,
    antiAffinityTerms,
    affinityCounts,
    antiAffinityCounts,
    existingAntiAffinityCounts,
    existingAntiAffinityKeys: [...existingAntiAffinityKeys],
    matchesOwnAffinity,
    approximated,
  };
}

/** Visits the assigned pods a term's selector and namespaces match, terminating ones included. */
function forEachTermMatch(
  term: AffinityTerm,
  cluster: ClusterState,
  each: (node: NodeInfo, namespace: string, labels: Readonly<Record<string, string>>) => void,
): void {
  const { selector } = term;
  if (selector === null) return;
  const namespaces = term.allNamespaces ? cluster.namespaces() : term.namespaces;
  for (const namespace of namespaces) {
    cluster.forEachMatch(namespace, selector, (at, labels) => each(cluster.nodeInfos[at]!, namespace, labels));
  }
}

/** Pods on nodes without the key add nothing. */
function count(counts: PairCounts, node: NodeInfo, topologyKey: string): void {
  const value = node.labels[topologyKey];
  if (value === undefined) return;
  let values = counts.get(topologyKey);
  if (!values) counts.set(topologyKey, (values = new Map()));
  values.set(value, (values.get(value) ?? 0) + 1);
}

/**
 * `Filter`, in upstream's order:
 * 1. required affinity: the node has every term's key and each term has a matching pod in the node's
 *    domain; or no pod anywhere matches and the pod matches its own terms (the first pod of a group);
 * 2. required anti-affinity: no term has a matching pod in the node's domain (terms whose key the node
 *    lacks impose nothing);
 * 3. existing pods' required anti-affinity: no topology pair of the node is claimed against this pod.
 */
export function interPodAffinity(state: AffinityState, node: NodeInfo): FilterResult {
  if (!satisfiesAffinity(state, node)) return unresolvable(AFFINITY_REASON);
  if (conflictsWithAntiAffinity(state, node)) return unschedulable(ANTI_AFFINITY_REASON);
  if (conflictsWithExistingAntiAffinity(state, node)) return unschedulable(EXISTING_ANTI_AFFINITY_REASON);
  return null;
}

function satisfiesAffinity(state: AffinityState, node: NodeInfo): boolean {
  let podsExist = true;
  for (const term of state.affinityTerms) {
    const value = node.labels[term.topologyKey];
    if (value === undefined) return false;
    if (countAt(state.affinityCounts, term.topologyKey, value) <= 0) podsExist = false;
  }
  return podsExist || (state.affinityCounts.size === 0 && state.matchesOwnAffinity);
}

function conflictsWithAntiAffinity(state: AffinityState, node: NodeInfo): boolean {
  if (state.antiAffinityCounts.size === 0) return false;
  for (const term of state.antiAffinityTerms) {
    const value = node.labels[term.topologyKey];
    if (value !== undefined && countAt(state.antiAffinityCounts, term.topologyKey, value) > 0) return true;
  }
  return false;
}

function conflictsWithExistingAntiAffinity(state: AffinityState, node: NodeInfo): boolean {
  for (const key of state.existingAntiAffinityKeys) {
    const value = node.labels[key];
    if (value !== undefined && countAt(state.existingAntiAffinityCounts, key, value) > 0) return true;
  }
  return false;
}

export const interPodAffinityPlugin: FilterPlugin<AffinityState> = {
  name: 'InterPodAffinity',
  reads: ['Node', 'Pod', 'Namespace'],
  preFilter: interPodAffinityPreFilter,
  filter: (_pod, node, state) => interPodAffinity(state, node),
  approximates: (state) => (state.approximated ? NAMESPACE_SELECTOR_UNKNOWN : null),
};
