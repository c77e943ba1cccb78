import type { V1LabelSelector, V1LabelSelectorRequirement, V1TopologySpreadConstraint } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../../snapshot/label-selector.js';
import { isEmptySelector } from '../affinity-term.js';
import { type ClusterState, type FilterPlugin, type FilterResult, unresolvable, unschedulable } from '../framework.js';
import { requiredNodeAffinity } from '../node-selector.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { UNSCHEDULABLE_TAINT, untoleratedDoNotScheduleTaint } from '../../tolerations.js';
import { topologyDomains } from '../topology-domains.js';

/** PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread, v1.37). */
export const SPREAD_REASON = "node(s) didn't match pod topology spread constraints";
export const SPREAD_MISSING_LABEL_REASON = `${SPREAD_REASON} (missing required label)`;

type InclusionPolicy = 'Honor' | 'Ignore';

/** A DoNotSchedule constraint with its defaults applied (common.go `filterTopologySpreadConstraints`). */
export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  /** null: labelSelector unset, which selects no pod. */
  readonly selector: V1LabelSelector | null;
  readonly minDomains: number;
  readonly nodeAffinityPolicy: InclusionPolicy;
  readonly nodeTaintsPolicy: InclusionPolicy;
  /** Whether the incoming pod's own labels match the selector (it adds itself to the domain it lands in). */
  readonly selfMatch: boolean;
}

/**
 * PreFilter's result: per constraint, matching pods per eligible domain (a domain without any is absent:
 * it counts 0) and the global minimum.
 */
export interface SpreadState {
  readonly constraints: readonly SpreadConstraint[];
  /** Per constraint, each node's domain by position (topologyDomains: -1 without the key). */
  readonly domainIds: readonly Int32Array[];
  /** Per constraint, matching pods per domain id. */
  readonly domainCounts: readonly Int32Array[];
  readonly globalMin: readonly number[];
}

/** Per constraint, the nodes (by position) whose pods count and how many domains they make. */
interface EligibleDomains {
  readonly counts: (at: number) => boolean;
  readonly domains: number;
}

/**
 * Per constraint, over the cluster state's nodes (none cordoned by the drain): the nodes that count (1 by
 * position), how many per domain id (topologyDomains), and how many domains have one.
 */
interface StateDomains {
  readonly included: Uint8Array;
  readonly nodesPerDomain: Int32Array;
  readonly domains: number;
}

/**
 * The pod's DoNotSchedule constraints. Only explicit constraints can filter: a pod without any gets the
 * system defaults (hostname maxSkew 3, zone maxSkew 5), which are ScheduleAnyway and only score.
 * Defaults: minDomains 1, nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore (both policies GA since 1.33).
 * matchLabelKeys: the pod's values for the keys it has are ANDed into the selector, unless the selector
 * is unset (it then still selects nothing).
 */
export function spreadConstraints(pod: PodInfo): SpreadConstraint[] {
  const constraints = pod.pod.spec?.topologySpreadConstraints ?? [];
  return constraints.filter((c) => c.whenUnsatisfiable === 'DoNotSchedule').map((c) => parseConstraint(c, pod));
}

export function parseConstraint(c: V1TopologySpreadConstraint, pod: PodInfo): SpreadConstraint {
  const selector = c.labelSelector ? withMatchLabelKeys(c.labelSelector, c.matchLabelKeys ?? [], pod.labels) : null;
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    selector,
    minDomains: c.minDomains ?? 1,
    nodeAffinityPolicy: c.nodeAffinityPolicy === 'Ignore' ? 'Ignore' : 'Honor',
    nodeTaintsPolicy: c.nodeTaintsPolicy === 'Honor' ? 'Honor' : 'Ignore',
    selfMatch: selector !== null && matchesLabelSelector(pod.labels, selector),
  };
}

function withMatchLabelKeys(
  selector: V1LabelSelector,
  keys: readonly string[],
  labels: Readonly<Record<string, string>>,
): V1LabelSelector {
  const pairs: V1LabelSelectorRequirement[] = keys
    .filter((key) => key in labels)
    .map((key) => ({ key, operator: 'In', values: [labels[key]!] }));
  if (pairs.length === 0) return selector;
  return { ...selector, matchExpressions: [...pairs, ...(selector.matchExpressions ?? [])] };
}

/**
 * `calPreFilterState`: walks every node. A node counts only if it has the topology key of EVERY
 * constraint, and per constraint only if it passes the inclusion policies (Honor: it matches the pod's
 * nodeSelector/required affinity; Honor: it has no untolerated NoSchedule/NoExecute taint, so a cordoned
 * node drops out). Its domain then exists even with 0 matching pods. Counted pods: same namespace,
 * labels matching, not terminating (evicted pods are terminating), on an eligible node.
 *
 * Two quirks kept on purpose, as v1.37.2 has them: an unset selector counts nothing; a selector without
 * any requirement (`{}`, no matchLabelKeys values) also counts nothing, because `countPodsMatchSelector`
 * returns 0 when the selector is Empty() (fixed after 1.37 by kubernetes/kubernetes#141340).
 */
export function topologySpreadPreFilter(pod: PodInfo, cluster: ClusterState): SpreadState {
  const constraints = spreadConstraints(pod);
  if (constraints.length === 0) return { constraints, domainIds: [], domainCounts: [], globalMin: [] };
  const eligible = eligibleDomains(pod, constraints, cluster);
  const domains = constraints.map((c) => topologyDomains(cluster, c.topologyKey));
  const domainIds = domains.map((d) => d.ids);
  const domainCounts = domains.map((d) => new Int32Array(d.values.length));
  constraints.forEach((c, i) => {
    if (c.selector === null || isEmptySelector(c.selector)) return;
    const { counts } = eligible[i]!;
    const [ids, perDomain] = [domainIds[i]!, domainCounts[i]!];
    // An eligible node has every constraint's key: its domain id is there.
    cluster.forEachRunningMatch(pod.namespace, c.selector, (at) => {
      if (counts(at)) perDomain[ids[at]!]!++;
    });
  });
  const globalMin = constraints.map((c, i) => {
    const { domains: eligibleCount } = eligible[i]!;
    if (eligibleCount < c.minDomains) return 0;
    // Matching pods count only on eligible nodes: the domains with any are eligible ones.
    let withPods = 0;
    let min = Infinity;
    for (const count of domainCounts[i]!) {
      if (count === 0) continue;
      withPods++;
      if (count < min) min = count;
    }
    return withPods < eligibleCount ? 0 : min;
  });
  return { constraints, domainIds, domainCounts, globalMin };
}

/**
 * The walk over every node: which count for each constraint. It reads only the nodes' labels and taints
 * and the pod's constraints, node affinity and tolerations, so it is kept for every pod with the same
 * ones (replicas of one workload, or of workloads alike): the walk over the cluster state's nodes for
 * every simulation of the state, and its correction for the nodes this drain cordons for the rest of
 * the simulation.
 */
function eligibleDomains(
  pod: PodInfo,
  constraints: readonly SpreadConstraint[],
  cluster: ClusterState,
): readonly EligibleDomains[] {
  const spec = pod.pod.spec;
  const tolerations = spec?.tolerations ?? [];
  const honorsTaints = constraints.some((c) => c.nodeTaintsPolicy === 'Honor');
  const key = `spread-domains\u0000${JSON.stringify([
    constraints.map((c) => [c.topologyKey, c.nodeAffinityPolicy, c.nodeTaintsPolicy]),
    spec?.nodeSelector ?? null,
    spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
    honorsTaints ? tolerations : null,
  ])}`;
  const hasKeys = (node: NodeInfo) => constraints.every((c) => c.topologyKey in node.labels);
  return cluster.memo(key, () => {
    // The pod's required node affinity, for nodeAffinityPolicy Honor: parsed here, as upstream's PreFilter
    // does, and only when the walk is not kept already.
    const affinity = requiredNodeAffinity(pod.pod);
    const included = (c: SpreadConstraint, node: NodeInfo) =>
      hasKeys(node) &&
      (c.nodeAffinityPolicy === 'Ignore' || affinity(node)) &&
      (c.nodeTaintsPolicy === 'Ignore' || untoleratedDoNotScheduleTaint(node.taints, tolerations) === undefined);
    const state = cluster.stateMemo(key, (nodes) =>
      constraints.map((c): StateDomains => {
        const { ids, values } = topologyDomains(cluster, c.topologyKey);
        const eligible = new Uint8Array(nodes.length);
        const nodesPerDomain = new Int32Array(values.length);
        let domains = 0;
        nodes.forEach((node, at) => {
          if (!included(c, node)) return;
          eligible[at] = 1;
          if (nodesPerDomain[ids[at]!]!++ === 0) domains++;
        });
        return { included: eligible, nodesPerDomain, domains };
      }),
    );
    return constraints.map((c, i) =>
      withDrainedNodes(state[i]!, topologyDomains(cluster, c.topologyKey).ids, cluster.drainedNodeInfos, (node) =>
        included(c, node),
      ),
    );
  });
}

/**
 * The state's eligible nodes and domains as this simulation sees them: a drained node is cordoned (one
 * taint more, so nodeTaintsPolicy Honor drops it, and its domain with it when it was the only node there).
 */
function withDrainedNodes(
  state: StateDomains,
  domainIds: Int32Array,
  drained: readonly NodeInfo[],
  included: (node: NodeInfo) => boolean,
): EligibleDomains {
  const wasIncluded = (node: NodeInfo) => state.included[node.position] === 1;
  const changed = drained.filter((node) => included(node) !== wasIncluded(node));
  if (changed.length === 0) return { counts: (at) => state.included[at] === 1, domains: state.domains };
  const now = new Map(changed.map((node) => [node.position, !wasIncluded(node)]));
  const perDomain = state.nodesPerDomain.slice();
  let domains = state.domains;
  for (const node of changed) {
    // A node that changes was (or is now) included, so it has the key: its domain id is there.
    const id = domainIds[node.position]!;
    const before = perDomain[id]!;
    const after = (perDomain[id] = before + (now.get(node.position) ? 1 : -1));
    if (before === 0 && after > 0) domains++;
    else if (before > 0 && after === 0) domains--;
  }
  return { counts: (at) => now.get(at) ?? state.included[at] === 1, domains };
}

// One of each, shared: the filter refuses many nodes of every placement, and a rejection is only read.
const MISSING_LABEL = unresolvable(SPREAD_MISSING_LABEL_REASON);
const SKEWED = unschedulable(SPREAD_REASON);

/**
 * `Filter`: per constraint, the node must carry the topology key (else "(missing required label)",
 * unresolvable), and matching pods in its domain + the pod itself − the global minimum must not exceed
 * maxSkew. The global minimum is 0 when there are fewer eligible domains than minDomains.
 */
export function topologySpread(state: SpreadState, node: NodeInfo): FilterResult {
  for (let i = 0; i < state.constraints.length; i++) {
    const c = state.constraints[i]!;
    const domain = state.domainIds[i]![node.position]!;
    if (domain < 0) return MISSING_LABEL;
    const skew = state.domainCounts[i]![domain]! + (c.selfMatch ? 1 : 0) - state.globalMin[i]!;
    if (skew > c.maxSkew) return SKEWED;
  }
  return null;
}

/**
 * For a pod with a constraint (DoNotSchedule, or ScheduleAnyway for the score) that honours taints and
 * does not tolerate the cordon: each node the constraint counts, which a drain's cordon drops from its
 * domains.
 */
function cordonDropped(pod: PodInfo, cluster: ClusterState): readonly NodeInfo[] {
  const spec = pod.pod.spec;
  const tolerations = spec?.tolerations ?? [];
  const honours = (spec?.topologySpreadConstraints ?? []).filter((c) => c.nodeTaintsPolicy === 'Honor');
  if (honours.length === 0 || untoleratedDoNotScheduleTaint([UNSCHEDULABLE_TAINT], tolerations) === undefined)
    return [];
  const affinity = requiredNodeAffinity(pod.pod);
  return cluster.nodeInfos.filter(
    (node) =>
      untoleratedDoNotScheduleTaint(node.taints, tolerations) === undefined &&
      honours.some((c) => c.topologyKey in node.labels && (c.nodeAffinityPolicy === 'Ignore' || affinity(node))),
  );
}

/** A pod without DoNotSchedule constraints is skipped. */
export const podTopologySpreadPlugin: FilterPlugin<SpreadState> = {
  name: 'PodTopologySpread',
  reads: ['Node', 'Pod'],
  preFilter: topologySpreadPreFilter,
  skips: (_pod, state) => state.constraints.length === 0,
  filter: (_pod, node, state) => topologySpread(state, node),
  // The PreFilter counts running pods only (forEachRunningMatch); a constraint whose selector has no
  // requirement is tested too, though the PreFilter counts nothing for it.
  drainedNodesRead: (pod, cluster) => cordonDropped(pod, cluster),
  countsWhileRunning: (pod) => {
    const selectors = spreadConstraints(pod).flatMap((c) => (c.selector === null ? [] : [c.selector]));
    if (selectors.length === 0) return null;
    return (namespace, labels) =>
      namespace === pod.namespace && selectors.some((selector) => matchesLabelSelector(labels, selector));
  },
};
