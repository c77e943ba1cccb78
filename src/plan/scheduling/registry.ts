import type { NodeMatcher } from './node-selector.js';
import type { ClusterState, CycleState, FilterPlugin, PluginState, Rejection, ScorePlugin } from './framework.js';
import { NEWEST_MINOR } from '../kube-version.js';
import { DEFAULT_PROFILES } from './profile.js';
import { interPodAffinityPlugin } from './plugins/inter-pod-affinity.js';
import { interPodAffinityScorePlugin } from './plugins/inter-pod-affinity-score.js';
import { nodeAffinityPlugin, nodeAffinityScorePlugin } from './plugins/node-affinity.js';
import type { NodeInfo } from './node-info.js';
import { nodePortsPlugin } from './plugins/node-ports.js';
import { nodeResourcesFitPlugin } from './plugins/node-resources-fit.js';
import { nodeUnschedulablePlugin } from './plugins/node-unschedulable.js';
import { nodeVolumeLimitsPlugin } from './plugins/node-volume-limits.js';
import type { PodInfo } from './pod-info.js';
import { taintTolerationPlugin, taintTolerationScorePlugin } from './plugins/taint-toleration.js';
import { balancedAllocationScorePlugin, nodeResourcesFitScorePlugin } from './plugins/resource-scores.js';
import { podTopologySpreadPlugin } from './plugins/topology-spread.js';
import { podTopologySpreadScorePlugin } from './plugins/topology-spread-score.js';
import { dynamicResourcesPlugin } from './plugins/dynamic-resources.js';
import { volumeBindingPlugin } from './plugins/volume-binding.js';
import { volumeRestrictionsPlugin } from './plugins/volume-restrictions.js';
import { volumeZonePlugin } from './plugins/volume-zone.js';

/** Every filter plugin by name (plugins/registry.go's map for the filters). */
const FILTERS_BY_NAME: ReadonlyMap<string, FilterPlugin> = new Map(
  [
    nodeUnschedulablePlugin,
    taintTolerationPlugin,
    nodeAffinityPlugin,
    nodePortsPlugin,
    nodeResourcesFitPlugin,
    volumeRestrictionsPlugin,
    nodeVolumeLimitsPlugin,
    volumeBindingPlugin,
    volumeZonePlugin,
    podTopologySpreadPlugin,
    interPodAffinityPlugin,
    dynamicResourcesPlugin,
  ].map((plugin): [string, FilterPlugin] => [plugin.name, plugin as FilterPlugin]),
);

/** Every score plugin by name. */
const SCORES_BY_NAME: ReadonlyMap<string, ScorePlugin> = new Map(
  [
    taintTolerationScorePlugin,
    nodeAffinityScorePlugin,
    podTopologySpreadScorePlugin,
    interPodAffinityScorePlugin,
    nodeResourcesFitScorePlugin,
    balancedAllocationScorePlugin,
  ].map((plugin) => [plugin.name, plugin]),
);

function registered<T>(byName: ReadonlyMap<string, T>, name: string): T {
  const plugin = byName.get(name);
  if (!plugin) throw new Error(`the default profile names ${name}, which no plugin registers`);
  return plugin;
}

/**
 * The profile the simulation runs: the newest supported minor's (profile.ts), whose modelled plugins and
 * weights every supported minor shares (a test holds them to that).
 */
const PROFILE = DEFAULT_PROFILES[NEWEST_MINOR];

/** The modelled filters in the default profile's order (see Profile.filters). */
export const FILTER_PLUGINS: readonly FilterPlugin[] = PROFILE.filters.map((name) => registered(FILTERS_BY_NAME, name));

/** The modelled score plugins, each with its weight in the default profile. */
export const SCORE_PLUGINS: readonly { readonly plugin: ScorePlugin; readonly weight: number }[] = PROFILE.scores.map(
  ({ name, weight }) => ({ plugin: registered(SCORES_BY_NAME, name), weight }),
);

/** Whether the plugin judges a node by its Node object alone (and the pod's spec), whatever pods run there. */
export const readsNodeObjectOnly = (plugin: FilterPlugin): boolean => plugin.reads.every((kind) => kind === 'Node');

/**
 * The filters that read only the Node object (labels, taints, spec.unschedulable) and the pod's
 * tolerations, nodeSelector and required node affinity (`nodeObjectFiltersKey`): their verdict on a node
 * holds for every pod with the same key, whatever the pods on the node. They come first in the profile,
 * so their verdict followed by POD_FILTERS' is the whole list's (a test holds the order to that).
 */
export const NODE_OBJECT_FILTERS: readonly FilterPlugin[] = FILTER_PLUGINS.filter(readsNodeObjectOnly);
/** The rest, which read the pods on the node and in the cluster, or the storage and device objects. */
export const POD_FILTERS: readonly FilterPlugin[] = FILTER_PLUGINS.filter((plugin) => !readsNodeObjectOnly(plugin));

/**
 * Every plugin's PreFilter, in the profile's order, each state kept under its plugin; the first
 * rejection holds for every node (`RunPreFilterPlugins`). Every PreFilter runs, so that the states a
 * placement reads besides the filters (the volumes' and claims' for its caveats) are there.
 */
export function preFilter(pod: PodInfo, cluster: ClusterState): CycleState {
  const states = new Map<FilterPlugin, unknown>();
  let rejection: Rejection | null = null;
  for (const plugin of FILTER_PLUGINS) {
    const state = plugin.preFilter?.(pod, cluster);
    states.set(plugin, state);
    rejection ??= plugin.rejects?.(state) ?? null;
  }
  const podFilters: PluginState[] = [];
  for (const plugin of POD_FILTERS) {
    const state = states.get(plugin);
    if (!plugin.skips?.(pod, state)) podFilters.push({ plugin, state });
  }
  return { read: <S>(plugin: FilterPlugin<S>) => states.get(plugin) as S, rejection, podFilters };
}

/**
 * The cycle's POD_FILTERS, in their order, without those its PreFilter skipped (no host port, no
 * DoNotSchedule constraint, no claims): every node a placement checks goes through here. `from`: the
 * first of them to run, those before it passed.
 */
export function runPodFilters(pod: PodInfo, node: NodeInfo, state: CycleState, from = 0): Rejection | null {
  const filters = state.podFilters;
  for (let i = from; i < filters.length; i++) {
    const { plugin, state: own } = filters[i]!;
    const rejection = plugin.filter(pod, node, own);
    if (rejection) return rejection;
  }
  return null;
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
    const rejection = plugin.filter(pod, node, state.read(plugin));
    if (rejection) return rejection;
  }
  return null;
}

/**
 * Why where the pod lands on `node` is not known, null when it is: the first plugin whose answer is
 * approximate on every node, then the first, in the profile's order, whose passing the node does not
 * settle that the pod runs there.
 */
export function unknownAnswer(state: CycleState, node: NodeInfo): string | null {
  for (const plugin of FILTER_PLUGINS) {
    const why = plugin.approximates?.(state.read(plugin));
    if (why) return why;
  }
  for (const plugin of FILTER_PLUGINS) {
    const why = plugin.unknownOn?.(state.read(plugin), node);
    if (why !== undefined && why !== null) return why;
  }
  return null;
}

/** Each plugin's nodes the pod's own objects allow it on, in the profile's order (see FilterPlugin.narrows). */
export function narrowings(state: CycleState): NodeMatcher[] {
  const out: NodeMatcher[] = [];
  for (const plugin of FILTER_PLUGINS) {
    const allows = plugin.narrows?.(state.read(plugin), state);
    if (allows) out.push(allows);
  }
  return out;
}

/** The nodes whose drain may change the pod's placement otherwise than by refusing it (see FilterPlugin.drainedNodesRead). */
export function drainedNodesRead(pod: PodInfo, cluster: ClusterState): readonly NodeInfo[] {
  return FILTER_PLUGINS.flatMap((plugin) => plugin.drainedNodesRead?.(pod, cluster) ?? []);
}

/** The plugins' Reserve, for the pod placed on the node. */
export function reserve(state: CycleState, node: NodeInfo, cluster: ClusterState): void {
  for (const plugin of FILTER_PLUGINS) plugin.reserve?.(state.read(plugin), node, cluster);
}

/** The filters that judge room (see FilterPlugin.isRoomReason). */
const ROOM_FILTERS: readonly FilterPlugin[] = FILTER_PLUGINS.filter((plugin) => plugin.isRoomReason !== undefined);

/** Whether a filter's reason is for room: resources, pod slots (see FilterPlugin.isRoomReason). */
export function isRoomReason(reason: string): boolean {
  return ROOM_FILTERS.some((plugin) => plugin.isRoomReason!(reason));
}

/** Whether the node has room for the pod: each filter that judges room, after its PreFilter, passes it there. */
export function hasRoom(pod: PodInfo, node: NodeInfo, cluster: ClusterState): boolean {
  return ROOM_FILTERS.every((plugin) => plugin.filter(pod, node, plugin.preFilter?.(pod, cluster)) === null);
}

/**
 * Whether a filter counts, for the pod, a pod of this namespace with these labels only while it runs
 * (see FilterPlugin.countsWhileRunning).
 */
export function countsWhileRunning(
  pod: PodInfo,
): (namespace: string, labels: Readonly<Record<string, string>>) => boolean {
  const tests = FILTER_PLUGINS.map((plugin) => plugin.countsWhileRunning?.(pod) ?? null).filter((t) => t !== null);
  return (namespace, labels) => tests.some((test) => test(namespace, labels));
}
