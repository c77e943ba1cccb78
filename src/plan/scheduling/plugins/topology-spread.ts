import type { V1LabelSelector, V1LabelSelectorRequirement, V1TopologySpreadConstraint } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../../snapshot/label-selector.js';
import { isEmptySelector } from '../affinity-term.js';
import { type ClusterState, type FilterResult, unresolvable, unschedulable } from '../framework.js';
import type { NodeMatcher } from './node-affinity.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { untoleratedDoNotScheduleTaint } from '../../tolerations.js';

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
  readonly domainCounts: readonly ReadonlyMap<string, number>[];
  readonly globalMin: readonly number[];
}

/** Per constraint, the nodes whose pods count and how many domains they make. */
interface EligibleDomains {
  readonly nodes: ReadonlySet<NodeInfo>;
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

function parseConstraint(c: V1TopologySpreadConstraint, pod: PodInfo): SpreadConstraint {
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
export function topologySpreadPreFilter(pod: PodInfo, affinity: NodeMatcher, cluster: ClusterState): SpreadState {
  const constraints = spreadConstraints(pod);
  if (constraints.length === 0) return { constraints, domainCounts: [], globalMin: [] };
  const eligible = eligibleDomains(pod, constraints, affinity, cluster);
  const domainCounts = constraints.map(() => new Map<string, number>());
  constraints.forEach((c, i) => {
    if (c.selector === null || isEmptySelector(c.selector)) return;
    for (const other of cluster.podsMatching(pod.namespace, c.selector)) {
      if (other.terminating || !eligible[i]!.nodes.has(other.node)) continue;
      const domain = other.node.labels[c.topologyKey]!;
      domainCounts[i]!.set(domain, (domainCounts[i]!.get(domain) ?? 0) + 1);
    }
  });
  const globalMin = constraints.map((c, i) => {
    const { domains } = eligible[i]!;
    if (domains < c.minDomains) return 0;
    const counts = domainCounts[i]!;
    return counts.size < domains ? 0 : Math.min(...counts.values());
  });
  return { constraints, domainCounts, globalMin };
}

/**
 * The walk over every node: which count for each constraint. It reads only the nodes' labels and taints
 * and the pod's constraints, node affinity and tolerations, so the cluster keeps it for every pod of the
 * simulation with the same ones (replicas of one workload, or of workloads alike).
 */
function eligibleDomains(
  pod: PodInfo,
  constraints: readonly SpreadConstraint[],
  affinity: NodeMatcher,
  cluster: ClusterState,
): readonly EligibleDomains[] {
  const spec = pod.pod.spec;
  const tolerations = spec?.tolerations ?? [];
  const honorsTaints = constraints.some((c) => c.nodeTaintsPolicy === 'Honor');
  const key = JSON.stringify([
    constraints.map((c) => [c.topologyKey, c.nodeAffinityPolicy, c.nodeTaintsPolicy]),
    spec?.nodeSelector ?? null,
    spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
    honorsTaints ? tolerations : null,
  ]);
  return cluster.memo(`spread-domains\u0000${key}`, () => {
    const included = (c: SpreadConstraint, node: NodeInfo) =>
      (c.nodeAffinityPolicy === 'Ignore' || affinity(node)) &&
      (c.nodeTaintsPolicy === 'Ignore' || untoleratedDoNotScheduleTaint(node.taints, tolerations) === undefined);
    const nodes = constraints.map(() => new Set<NodeInfo>());
    const domains = constraints.map(() => new Set<string>());
    for (const node of cluster.nodeInfos) {
      if (!constraints.every((c) => c.topologyKey in node.labels)) continue;
      constraints.forEach((c, i) => {
        if (!included(c, node)) return;
        domains[i]!.add(node.labels[c.topologyKey]!);
        nodes[i]!.add(node);
      });
    }
    return constraints.map((_, i) => ({ nodes: nodes[i]!, domains: domains[i]!.size }));
  });
}

/**
 * `Filter`: per constraint, the node must carry the topology key (else "(missing required label)",
 * unresolvable), and matching pods in its domain + the pod itself − the global minimum must not exceed
 * maxSkew. The global minimum is 0 when there are fewer eligible domains than minDomains.
 */
export function topologySpread(state: SpreadState, node: NodeInfo): FilterResult {
  for (const [i, c] of state.constraints.entries()) {
    const domain = node.labels[c.topologyKey];
    if (domain === undefined) return unresolvable(SPREAD_MISSING_LABEL_REASON);
    const skew = (state.domainCounts[i]!.get(domain) ?? 0) + (c.selfMatch ? 1 : 0) - state.globalMin[i]!;
    if (skew > c.maxSkew) return unschedulable(SPREAD_REASON);
  }
  return null;
}

/** Matching pods already in the node's domains, summed over constraints: lower means a better spread. */
export function spreadLoad(state: SpreadState, node: NodeInfo): number {
  let load = 0;
  state.constraints.forEach((c, i) => (load += state.domainCounts[i]!.get(node.labels[c.topologyKey] ?? '') ?? 0));
  return load;
}
