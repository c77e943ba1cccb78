/**
 * Runs one plugin the way the simulation does: PreFilter over a cluster built from fixtures, then the
 * plugin's Filter on one node. Keeps the plugin tests about the rule, not the plumbing.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { SimulatedCluster } from '../../../../src/plan/scheduling/cluster-state.js';
import type { FilterResult } from '../../../../src/plan/scheduling/framework.js';
import { podInfo } from '../../../../src/plan/scheduling/pod-info.js';
import { FILTER_PLUGINS, preFilter } from '../../../../src/plan/scheduling/registry.js';
import { makeIndex, type SnapshotInput } from '../../builders.js';

export interface Scene {
  readonly nodes: readonly V1Node[];
  readonly pods?: readonly V1Pod[];
  readonly drained?: readonly string[];
  /** Pods the simulation marks as evicted (terminating) before the placement. */
  readonly evicted?: readonly V1Pod[];
  /** Claims, volumes, classes and CSI objects, and which kinds were read. */
  readonly storage?: SnapshotInput;
}

export function clusterOf(scene: Scene): SimulatedCluster {
  const cluster = new SimulatedCluster(
    makeIndex({ ...scene.storage, nodes: scene.nodes, pods: scene.pods ?? [] }),
    new Set(scene.drained ?? []),
  );
  for (const pod of scene.evicted ?? []) cluster.evict(pod);
  return cluster;
}

/** A table row for a plugin that needs the cluster: the scene, the incoming pod, the node and the verdict. */
export interface PluginCase {
  readonly name: string;
  readonly scene: Scene;
  readonly incoming: V1Pod;
  readonly node: string;
  readonly want: FilterResult;
}

/** The verdict of the named plugin (e.g. 'TaintToleration') for `incoming` on `nodeName`. */
export function runPlugin(plugin: string, scene: Scene, incoming: V1Pod, nodeName: string): FilterResult {
  const cluster = clusterOf(scene);
  const pod = podInfo(incoming, cluster.snapshot);
  const state = preFilter(pod, cluster);
  const node = cluster.nodeInfo(nodeName);
  const found = FILTER_PLUGINS.find((p) => p.name === plugin);
  if (!node || !found) throw new Error(`no node ${nodeName} or plugin ${plugin}`);
  return found.filter(pod, node, state.read(found));
}

/** Table rows that share a scene and an incoming pod and differ in the node asked about: [name, node, want]. */
export function onNodes(
  scene: Scene,
  incoming: V1Pod,
  rows: ReadonlyArray<readonly [name: string, node: string, want: FilterResult]>,
): PluginCase[] {
  return rows.map(([name, node, want]) => ({ name, scene, incoming, node, want }));
}
