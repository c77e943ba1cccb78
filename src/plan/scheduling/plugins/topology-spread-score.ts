import type { V1LabelSelector, V1LabelSelectorRequirement } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../../snapshot/label-selector.js';
import { isEmptySelector } from '../affinity-term.js';
import type { AssignedPod, ClusterState } from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { untoleratedDoNotScheduleTaint } from '../../tolerations.js';
import type { NodeMatcher } from './node-affinity.js';
import { MAX_NODE_SCORE } from './score-normalize.js';
import { parseConstraint, type SpreadConstraint } from './topology-spread.js';

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
 * PodTopologySpread's score (podtopologyspread/scoring.go, v1.37), weight 2, normalized: the pod's
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
  const explicit = pod.pod.spec?.topologySpreadConstraints ?? [];
  let constraints: SpreadConstraint[];
  if (explicit.length > 0) {
    constraints = explicit.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway').map((c) => parseConstraint(c, pod));
  } else {
    const selector = defaultSelector(pod, cluster);
    if (selector === null) return null;
    constraints = SYSTEM_DEFAULTS.map((d) =>
      parseConstraint({ ...d, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selector }, pod),
    );
  }
  if (constraints.length === 0) return null;
  const requireAll = explicit.length > 0;
  const hasKeys = (node: NodeInfo) => constraints.every((c) => c.topologyKey in node.labels);
  const ignored = feasible.map((node) => requireAll && !hasKeys(node));

  const tolerations = pod.pod.spec?.tolerations ?? [];
  const included = (c: SpreadConstraint, node: NodeInfo) =>
    (c.nodeAffinityPolicy === 'Ignore' || affinity(node)) &&
    (c.nodeTaintsPolicy === 'Ignore' || untoleratedDoNotScheduleTaint(node.taints, tolerations) === undefined);
  // The system defaults' two constraints share one selector: its pods are looked up once.
  const matchingOf = new Map<V1LabelSelector, AssignedPod[]>();
  const matching = (selector: V1LabelSelector) => {
    let pods = matchingOf.get(selector);
    if (!pods)
      matchingOf.set(selector, (pods = cluster.podsMatching(pod.namespace, selector).filter((p) => !p.terminating)));
    return pods;
  };
  // Per constraint, its weight and matching pods per node (hostname) or per domain (any other key).
  const perConstraint = constraints.map((c) => {
    const counted = c.selector !== null && !isEmptySelector(c.selector) ? matching(c.selector) : [];
    if (c.topologyKey === HOSTNAME) {
      const perNode = new Map<NodeInfo, number>();
      for (const p of counted) perNode.set(p.node, (perNode.get(p.node) ?? 0) + 1);
      const scored = ignored.reduce((n, ignore) => (ignore ? n : n + 1), 0);
      return { weight: Math.log(scored + 2), perNode, domains: null };
    }
    const domains = new Map<string, number>();
    for (let i = 0; i < feasible.length; i++) {
      const value = feasible[i]!.labels[c.topologyKey];
      if (!ignored[i] && value !== undefined) domains.set(value, 0);
    }
    for (const p of counted) {
      const value = p.node.labels[c.topologyKey];
      if (value === undefined || !domains.has(value)) continue;
      if ((requireAll && !hasKeys(p.node)) || !included(c, p.node)) continue;
      domains.set(value, domains.get(value)! + 1);
    }
    return { weight: Math.log(domains.size + 2), perNode: null, domains };
  });

  // Every feasible node goes through here: plain loops, nothing made per node, one array for the scores.
  const scores = new Array<number>(feasible.length);
  let max = 0;
  let min = Infinity;
  for (let i = 0; i < feasible.length; i++) {
    if (ignored[i]) {
      scores[i] = 0;
      continue;
    }
    const node = feasible[i]!;
    let score = 0;
    for (let k = 0; k < constraints.length; k++) {
      const c = constraints[k]!;
      const value = node.labels[c.topologyKey];
      if (value === undefined) continue;
      const { weight, perNode, domains } = perConstraint[k]!;
      const count = perNode ? (perNode.get(node) ?? 0) : (domains.get(value) ?? 0);
      score += count * weight + (c.maxSkew - 1);
    }
    const rounded = (scores[i] = Math.round(score));
    if (rounded > max) max = rounded;
    if (rounded < min) min = rounded;
  }
  if (min === Infinity) min = 0;
  // Normalized in place: fewer matching pods score higher.
  for (let i = 0; i < scores.length; i++) {
    if (ignored[i]) continue;
    scores[i] = max === 0 ? MAX_NODE_SCORE : Math.trunc((MAX_NODE_SCORE * (max + min - scores[i]!)) / max);
  }
  return scores;
}

/**
 * `helper.DefaultSelector`: the requirements of every Service, ReplicationController, ReplicaSet and
 * StatefulSet of the pod's namespace that selects it, ANDed; null when none does.
 */
function defaultSelector(pod: PodInfo, cluster: ClusterState): V1LabelSelector | null {
  const key = `spread-default-selector\u0000${pod.namespace}\u0000${JSON.stringify(pod.labels)}`;
  return cluster.stateMemo(key, () => {
    const owners = selectorsOf(pod.namespace, cluster);
    const matchLabels: Record<string, string> = {};
    const matchExpressions: V1LabelSelectorRequirement[] = [];
    let selected = false;
    for (const set of owners.sets) {
      if (!Object.entries(set).every(([k, v]) => pod.labels[k] === v)) continue;
      Object.assign(matchLabels, set);
      selected = true;
    }
    for (const selector of owners.selectors) {
      if (!matchesLabelSelector(pod.labels, selector)) continue;
      Object.assign(matchLabels, selector.matchLabels ?? {});
      matchExpressions.push(...(selector.matchExpressions ?? []));
      selected = true;
    }
    return selected ? { matchLabels, matchExpressions } : null;
  });
}

/** Selectors of one namespace's owners: Service and ReplicationController label sets, ReplicaSet and StatefulSet selectors. */
interface OwnerSelectors {
  readonly sets: Record<string, string>[];
  readonly selectors: V1LabelSelector[];
}

const NO_OWNERS: OwnerSelectors = { sets: [], selectors: [] };

/** The namespace's owner selectors, none empty: grouped for every namespace in one pass over the snapshot, once per cluster state. */
function selectorsOf(namespace: string, cluster: ClusterState): OwnerSelectors {
  const byNamespace = cluster.stateMemo('spread-owner-selectors', () => {
    const snapshot = cluster.snapshot;
    const grouped = new Map<string, OwnerSelectors>();
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
    return grouped;
  });
  return byNamespace.get(namespace) ?? NO_OWNERS;
}
