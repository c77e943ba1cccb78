import type { ClusterState, FilterResult, Rejection } from './framework.js';
import { interPodAffinity, interPodAffinityPreFilter, type AffinityState } from './plugins/inter-pod-affinity.js';
import { nodeAffinity, type NodeMatcher, requiredNodeAffinity } from './plugins/node-affinity.js';
import type { NodeInfo } from './node-info.js';
import { nodePorts } from './plugins/node-ports.js';
import { nodeResourcesFit, nodeResourcesFitPreFilter, type ResourceRequest } from './plugins/node-resources-fit.js';
import { nodeUnschedulable } from './plugins/node-unschedulable.js';
import type { PodInfo } from './pod-info.js';
import { taintToleration } from './plugins/taint-toleration.js';
import { type SpreadState, topologySpread, topologySpreadPreFilter } from './plugins/topology-spread.js';
import { type DraState, dynamicResources, dynamicResourcesPreFilter } from './plugins/dynamic-resources.js';
import { volumeBinding } from './plugins/volume-binding.js';
import { volumeRestrictions } from './plugins/volume-restrictions.js';
import { volumeZone } from './plugins/volume-zone.js';
import { volumeFilters, volumeLimitsFilter, type VolumeState, volumesPreFilter } from './volume-state.js';

/** What PreFilter worked out once per placement; every Filter only reads it (the framework's CycleState). */
export interface CycleState {
  readonly nodeAffinity: NodeMatcher;
  readonly fit: readonly ResourceRequest[];
  readonly spread: SpreadState;
  readonly podAffinity: AffinityState;
  /** The volume plugins' state; null for a pod without claims. */
  readonly volumes: VolumeState | null;
  /** DynamicResources' state; null for a pod without resource claims. */
  readonly dra: DraState | null;
}

export interface FilterPlugin {
  readonly name: string;
  readonly filter: (pod: PodInfo, node: NodeInfo, state: CycleState) => FilterResult;
}

/**
 * The modelled filters in the default profile's order (pkg/scheduler/apis/config/v1/default_plugins.go,
 * v1.37, DynamicResources inserted before DefaultPreemption as its applyFeatureGates does). NodeName
 * always passes for a replacement (it has no nodeName); NodeDeclaredFeatures is not modelled (see
 * UNMODELLED_SCHEDULER_RULES). The order matters: a node is reported under the first filter that rejects
 * it, as in the FailedScheduling event.
 */
export const FILTER_PLUGINS: readonly FilterPlugin[] = [
  { name: 'NodeUnschedulable', filter: (pod, node) => nodeUnschedulable(pod, node) },
  { name: 'TaintToleration', filter: (pod, node) => taintToleration(pod, node) },
  { name: 'NodeAffinity', filter: (_pod, node, state) => nodeAffinity(state.nodeAffinity, node) },
  // The filters above read only the Node object and the pod's tolerations and node selector/affinity.
  { name: 'NodePorts', filter: (pod, node) => nodePorts(pod, node) },
  { name: 'NodeResourcesFit', filter: (_pod, node, state) => nodeResourcesFit(state.fit, node) },
  { name: 'VolumeRestrictions', filter: (_pod, _node, state) => volumeRestrictions(state.volumes?.conflicts ?? 0) },
  {
    name: 'NodeVolumeLimits',
    filter: (_pod, node, state) => (state.volumes?.binding ? volumeLimitsFilter(state.volumes, node) : null),
  },
  {
    name: 'VolumeBinding',
    filter: (_pod, node, state) => (state.volumes?.binding ? volumeBinding(state.volumes.binding, node) : null),
  },
  { name: 'VolumeZone', filter: (_pod, node, state) => volumeZone(state.volumes?.zones ?? [], node) },
  { name: 'PodTopologySpread', filter: (_pod, node, state) => topologySpread(state.spread, node) },
  { name: 'InterPodAffinity', filter: (_pod, node, state) => interPodAffinity(state.podAffinity, node) },
  { name: 'DynamicResources', filter: (_pod, node, state) => (state.dra ? dynamicResources(state.dra, node) : null) },
];

export function preFilter(pod: PodInfo, cluster: ClusterState): CycleState {
  const affinity = requiredNodeAffinity(pod.pod);
  return {
    nodeAffinity: affinity,
    fit: nodeResourcesFitPreFilter(pod),
    spread: topologySpreadPreFilter(pod, affinity, cluster),
    podAffinity: interPodAffinityPreFilter(pod, cluster),
    volumes: volumesPreFilter(pod, cluster),
    dra: dynamicResourcesPreFilter(pod, cluster),
  };
}

/**
 * The first filters, which read only the Node object (labels, taints, spec.unschedulable) and the pod's
 * tolerations, nodeSelector and required node affinity (`nodeObjectFiltersKey`): their verdict on a node
 * holds for every pod with the same key, whatever the pods on the node.
 */
export const NODE_OBJECT_FILTERS: readonly FilterPlugin[] = FILTER_PLUGINS.slice(0, 3);
/** The rest, which read the pods on the node and in the cluster. */
export const POD_FILTERS: readonly FilterPlugin[] = FILTER_PLUGINS.slice(3);

/**
 * POD_FILTERS called directly, in their order, skipping those with nothing to check for this pod (no
 * host port, no DoNotSchedule constraint): every node a placement checks goes through here, and a call
 * through the plugin list costs more than most checks.
 */
export function runPodFilters(pod: PodInfo, node: NodeInfo, state: CycleState): Rejection | null {
  return (
    (pod.hostPorts.length > 0 ? nodePorts(pod, node) : null) ??
    nodeResourcesFit(state.fit, node) ??
    (state.volumes ? volumeFilters(state.volumes, node) : null) ??
    (state.spread.constraints.length > 0 ? topologySpread(state.spread, node) : null) ??
    interPodAffinity(state.podAffinity, node) ??
    (state.dra ? dynamicResources(state.dra, node) : null)
  );
}

/** What NODE_OBJECT_FILTERS read of the pod. */
export function nodeObjectFiltersKey(pod: PodInfo): string {
  const spec = pod.pod.spec;
  return JSON.stringify([
    spec?.tolerations ?? null,
    spec?.nodeSelector ?? null,
    spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
  ]);
}

/** Runs the filters in order and stops at the first rejection (`RunFilterPlugins`). */
export function runFilters(
  pod: PodInfo,
  node: NodeInfo,
  state: CycleState,
  plugins: readonly FilterPlugin[] = FILTER_PLUGINS,
): Rejection | null {
  for (const plugin of plugins) {
    const rejection = plugin.filter(pod, node, state);
    if (rejection) return rejection;
  }
  return null;
}
