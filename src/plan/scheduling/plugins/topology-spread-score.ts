import type { V1LabelSelector, V1LabelSelectorRequirement, V1TopologySpreadConstraint } from '@kubernetes/client-node';
import { LabelIndex, matchesLabelSelector } from '../../../snapshot/label-selector.js';
import { isEmptySelector } from '../affinity-term.js';
import type { ClusterState, ScorePlugin } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { untoleratedDoNotScheduleTaint } from '../../tolerations.js';
import type { NodeMatcher } from '../node-selector.js';
import { ContentMemo, jsonKey } from '../content-memo.js';
import { topologyDomains } from '../topology-domains.js';
import { MAX_NODE_SCORE } from './score-normalize.js';
import { parseConstraint, type SpreadConstraint } from './topology-spread.js';
import { nodeAffinityPlugin } from './node-affinity.js';

const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

/**
 * The profile's default constraints for a pod without any (`systemDefaultConstraints`, the default
 * `defaultingType: System`): ScheduleAnyway on hostname with maxSkew 3 and on zone with maxSkew 5, over
 * the pods the same Services, ReplicationControllers, ReplicaSets and StatefulSets select.
 */
const SYSTEM_DEFAULTS = [
  { topologyKey: HOSTNAME, maxSkew: 3 },
  { topologyKey: ZONE, maxSkew: 5 },
] as const;

/**
 * PodTopologySpread's score (podtopologyspread/scoring.go, v1.37), normalized: the pod's
 * ScheduleAnyway constraints, or the system defaults when it has no constraint at all. Per feasible node,
 * Σ matching pods in its domain × ln(domains + 2) + (maxSkew − 1), rounded; then 100 × (max + min − s) /
 * max, so the emptiest domain scores highest. Domains are those of the feasible nodes; with explicit
 * constraints a feasible node without every topology key is ignored (scores 0). Counted pods: same
 * namespace, matching, not terminating, on a node the constraint's inclusion policies keep. Null when
 * the plugin skips (no soft constraint, or defaults with no selector).
 */
export function topologySpreadScores(
  pod: PodInfo,
  feasible: readonly NodeInfo[],
  affinity: NodeMatcher,
  cluster: ClusterState,
): number[] | null {
  const explicit = pod.pod.spec?.topologySpreadConstraints ?? NO_CONSTRAINTS;
  const constraints = scoredConstraints(pod, explicit, cluster);
  if (constraints === null || constraints.length === 0) return null;
  const requireAll = explicit.length > 0;
  const domainsOf = constraints.map((c) => topologyDomains(cluster, c.topologyKey));
  const domainIds = domainsOf.map((d) => d.ids);
  const hasKeys = (at: number) => domainIds.every((ids) => ids[at]! >= 0);
  // With explicit constraints a feasible node without every key is ignored: it scores 0. (No array
  // otherwise: the system defaults score most placements, and a typed array per placement costs.)
  const ignored = requireAll ? new Uint8Array(feasible.length) : null;
  let scored = feasible.length;
  if (ignored) {
    for (let i = 0; i < feasible.length; i++) {
      if (hasKeys(feasible[i]!.position)) continue;
      ignored[i] = 1;
      scored--;
    }
  }

  const tolerations = pod.pod.spec?.tolerations ?? [];
  const nodes = cluster.nodeInfos;
  const included = (c: SpreadConstraint, at: number) => {
    const node = nodes[at]!;
    return (
      (c.nodeAffinityPolicy === 'Ignore' || affinity(node)) &&
      (c.nodeTaintsPolicy === 'Ignore' || untoleratedDoNotScheduleTaint(node.taints, tolerations) === undefined)
    );
  };
  // Per constraint, matching pods per node position (hostname) or per domain id (any other key), and
  // its weight: ln of the number of domains among the scored nodes, + 2.
  const counts = constraints.map((c, k) =>
    c.topologyKey === HOSTNAME ? perNodeCounts(cluster, k) : new Int32Array(domainsOf[k]!.values.length),
  );
  const weights = constraints.map((c, k) => {
    if (c.topologyKey === HOSTNAME) return Math.log(scored + 2);
    const present = new Uint8Array(counts[k]!.length);
    let domains = 0;
    for (let i = 0; i < feasible.length; i++) {
      const id = domainIds[k]![feasible[i]!.position]!;
      if (ignored?.[i] || id < 0 || present[id]) continue;
      present[id] = 1;
      domains++;
    }
    return Math.log(domains + 2);
  });
  // Constraints that share a selector (the system defaults' two) count its pods in one pass.
  const bySelector = new Map<V1LabelSelector, number[]>();
  constraints.forEach((c, k) => {
    if (c.selector === null || isEmptySelector(c.selector)) return;
    const group = bySelector.get(c.selector);
    if (group) group.push(k);
    else bySelector.set(c.selector, [k]);
  });
  for (const [selector, group] of bySelector) {
    cluster.forEachRunningMatch(pod.namespace, selector, (at) => {
      for (const k of group) {
        const c = constraints[k]!;
        if (c.topologyKey === HOSTNAME) {
          counts[k]![at]!++;
          continue;
        }
        const id = domainIds[k]![at]!;
        if (id < 0 || (requireAll && !hasKeys(at)) || !included(c, at)) continue;
        counts[k]![id]!++;
      }
    });
  }

  // Every feasible node goes through here: typed arrays read by position, nothing made per node. A
  // constraint on any other key than hostname adds the same term on every node of a domain, worked out
  // once per domain (the same expression, so the sums are the same to the last bit).
  const perDomain = constraints.map((c, k) => {
    if (c.topologyKey === HOSTNAME) return null;
    const terms = new Float64Array(counts[k]!.length);
    for (let id = 0; id < terms.length; id++) terms[id] = counts[k]![id]! * weights[k]! + (c.maxSkew - 1);
    return terms;
  });
  const scores = new Array<number>(feasible.length);
  let max = 0;
  let min = Infinity;
  for (let i = 0; i < feasible.length; i++) {
    if (ignored !== null && ignored[i] === 1) {
      scores[i] = 0;
      continue;
    }
    const at = feasible[i]!.position;
    let score = 0;
    for (let k = 0; k < constraints.length; k++) {
      const id = domainIds[k]![at]!;
      if (id < 0) continue;
      const terms = perDomain[k];
      score += terms ? terms[id]! : counts[k]![at]! * weights[k]! + (constraints[k]!.maxSkew - 1);
    }
    const rounded = (scores[i] = Math.round(score));
    if (rounded > max) max = rounded;
    if (rounded < min) min = rounded;
  }
  if (min === Infinity) min = 0;
  // Normalized in place: fewer matching pods score higher.
  for (let i = 0; i < scores.length; i++) {
    if (ignored?.[i]) continue;
    scores[i] = max === 0 ? MAX_NODE_SCORE : Math.trunc((MAX_NODE_SCORE * (max + min - scores[i]!)) / max);
  }
  return scores;
}

/** A pod's constraints when it has none: one object, under which scoredConstraints keeps the defaults'. */
const NO_CONSTRAINTS: readonly V1TopologySpreadConstraint[] = [];

/**
 * The constraints the score counts: the pod's ScheduleAnyway ones, or the system defaults over its default
 * selector (null: none selects it). They read the pod's namespace, its labels and its constraints, so
 * they are kept per cluster state by the content of those (a replacement has its pod's): the replicas of
 * a workload, each with its own objects but alike, parse them once, and their selectors are then the
 * same objects each time.
 */
function scoredConstraints(
  pod: PodInfo,
  explicit: readonly V1TopologySpreadConstraint[],
  cluster: ClusterState,
): readonly SpreadConstraint[] | null {
  const kept = cluster.stateMemo(
    'spread-score-constraints',
    () => new Map<string, Map<string, Map<string, readonly SpreadConstraint[] | null>>>(),
  );
  // Each key a string kept per object (jsonKey), whose hash is made once: no key made per placement.
  let byConstraints = kept.get(pod.namespace);
  if (!byConstraints) kept.set(pod.namespace, (byConstraints = new Map()));
  let byLabels = byConstraints.get(jsonKey(explicit));
  if (!byLabels) byConstraints.set(jsonKey(explicit), (byLabels = new Map()));
  let constraints = byLabels.get(jsonKey(pod.labels));
  if (constraints === undefined)
    byLabels.set(jsonKey(pod.labels), (constraints = parsedConstraints(pod, explicit, cluster)));
  return constraints;
}

function parsedConstraints(
  pod: PodInfo,
  explicit: readonly V1TopologySpreadConstraint[],
  cluster: ClusterState,
): SpreadConstraint[] | null {
  if (explicit.length > 0)
    return explicit.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway').map((c) => parseConstraint(c, pod));
  const selector = defaultSelector(pod, cluster);
  if (selector === null) return null;
  return SYSTEM_DEFAULTS.map((d) =>
    parseConstraint({ ...d, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selector }, pod),
  );
}

/**
 * Matching pods per node position for the k-th constraint on hostname: one array per constraint for the
 * simulation, zeroed before each use, rather than one the size of the cluster for every placement.
 */
function perNodeCounts(cluster: ClusterState, k: number): Int32Array {
  const perNode = cluster.memo('spread-score-hostname-counts', (): Int32Array[] => []);
  return (perNode[k] ??= new Int32Array(cluster.nodeInfos.length)).fill(0);
}

/**
 * `helper.DefaultSelector`: the requirements of every Service, ReplicationController, ReplicaSet and
 * StatefulSet of the pod's namespace that selects it, ANDed; null when none does.
 */
function defaultSelector(pod: PodInfo, cluster: ClusterState): V1LabelSelector | null {
  const memo = cluster.stateMemo('spread-default-selector', () => new ContentMemo<V1LabelSelector | null>());
  return memo.get(pod.namespace, pod.labels, () => {
    const owners = selectorsOf(pod.namespace, cluster);
    const matchLabels: Record<string, string> = {};
    const matchExpressions: V1LabelSelectorRequirement[] = [];
    let selected = false;
    for (const set of owners.sets.mayMatch(pod.labels)) {
      if (!Object.entries(set).every(([k, v]) => pod.labels[k] === v)) continue;
      Object.assign(matchLabels, set);
      selected = true;
    }
    for (const selector of owners.selectors.mayMatch(pod.labels)) {
      if (!matchesLabelSelector(pod.labels, selector)) continue;
      Object.assign(matchLabels, selector.matchLabels ?? {});
      matchExpressions.push(...(selector.matchExpressions ?? []));
      selected = true;
    }
    return selected ? { matchLabels, matchExpressions } : null;
  });
}

/**
 * Selectors of one namespace's owners: Service and ReplicationController label sets, ReplicaSet and
 * StatefulSet selectors, indexed by a label they need.
 */
interface OwnerSelectors {
  readonly sets: LabelIndex<Record<string, string>>;
  readonly selectors: LabelIndex<V1LabelSelector>;
}

const NO_OWNERS: OwnerSelectors = { sets: new LabelIndex([], () => ({})), selectors: new LabelIndex([], () => ({})) };

/** The namespace's owner selectors, none empty: grouped for every namespace in one pass over the snapshot, once per cluster state. */
function selectorsOf(namespace: string, cluster: ClusterState): OwnerSelectors {
  const byNamespace = cluster.stateMemo('spread-owner-selectors', () => {
    const snapshot = cluster.snapshot;
    const grouped = new Map<string, { sets: Record<string, string>[]; selectors: V1LabelSelector[] }>();
    const of = (o: { metadata?: { namespace?: string } }) => {
      const ns = o.metadata?.namespace ?? 'default';
      let owners = grouped.get(ns);
      if (!owners) grouped.set(ns, (owners = { sets: [], selectors: [] }));
      return owners;
    };
    for (const o of [...snapshot.services, ...snapshot.replicationControllers]) {
      const set = o.spec?.selector;
      if (set !== undefined && Object.keys(set).length > 0) of(o).sets.push(set);
    }
    for (const o of [...snapshot.replicaSets, ...snapshot.statefulSets]) {
      const selector = o.spec?.selector;
      if (selector !== undefined && !isEmptySelector(selector)) of(o).selectors.push(selector);
    }
    return new Map(
      [...grouped].map(([ns, { sets, selectors }]): [string, OwnerSelectors] => [
        ns,
        { sets: new LabelIndex(sets, (set) => set), selectors: new LabelIndex(selectors, (s) => s.matchLabels ?? {}) },
      ]),
    );
  });
  return byNamespace.get(namespace) ?? NO_OWNERS;
}

/** PodTopologySpread's score, on the nodes the pod's required node affinity keeps (NodeAffinity's PreFilter state). */
export const podTopologySpreadScorePlugin: ScorePlugin = {
  name: 'PodTopologySpread',
  score: (pod, feasible, state, cluster) =>
    topologySpreadScores(pod, feasible, state.read(nodeAffinityPlugin), cluster),
};
