import type { V1CSINode, V1Node, V1Pod } from '@kubernetes/client-node';
import {
  type ClusterState,
  type FilterPlugin,
  type FilterResult,
  type Rejection,
  unschedulable,
} from '../framework.js';
import type { NodeInfo } from '../node-info.js';
import { claimKeysOf, type PodClaim, replacementClaims } from '../pod-claims.js';
import { type VolumeCatalog, volumeCatalog } from '../volume-catalog.js';
import { podVolumes, volumesUnknown } from './volume-binding.js';
import { type AttachableVolumes, attachableVolumes } from '../attachable-volumes.js';

/** NodeVolumeLimits (pkg/scheduler/framework/plugins/nodevolumelimits/csi.go, v1.37). */
export const MAX_VOLUME_COUNT_EXCEEDED = 'node(s) exceed max volume count';

/** The legacy node allocatable key of a CSI driver's attach limit (`GetCSIAttachLimitKey`, short names). */
const LEGACY_LIMIT_PREFIX = 'attachable-volumes-csi-';

/** The new pod's claims as NodeVolumeLimits counts them. */
export function podAttachableVolumes(claims: readonly PodClaim[], catalog: VolumeCatalog): Map<string, string> {
  return attachableVolumes(
    claims.map((c) => c.claim),
    catalog,
  );
}

// A memo, not state: a Node and a CSINode object never change.
const limitsOfNodes = new WeakMap<
  V1Node,
  { readonly csiNode: V1CSINode | undefined; readonly limits: ReadonlyMap<string, number> }
>();

/**
 * `getVolumeLimits`: the node's legacy `attachable-volumes-csi-<driver>` allocatable, overridden by its
 * CSINode's `allocatable.count` per driver. A driver with neither is unlimited. Kept per Node object
 * (and the CSINode it was read with): the filter asks it of every node of every placement.
 */
export function volumeLimits(node: NodeInfo, csiNode: V1CSINode | undefined): ReadonlyMap<string, number> {
  const kept = limitsOfNodes.get(node.node);
  if (kept && kept.csiNode === csiNode) return kept.limits;
  const limits = new Map<string, number>();
  for (const [key, value] of Object.entries(node.node.status?.allocatable ?? {})) {
    if (key.startsWith(LEGACY_LIMIT_PREFIX)) limits.set(key.slice(LEGACY_LIMIT_PREFIX.length), Number(value));
  }
  for (const driver of csiNode?.spec?.drivers ?? []) {
    const count = driver.allocatable?.count;
    if (count !== undefined && count !== null) limits.set(driver.name, count);
  }
  limitsOfNodes.set(node.node, { csiNode, limits });
  return limits;
}

/**
 * NodeVolumeLimits' Filter (CSI): the pod's volumes not already attached to the node (a volume shared
 * with a pod there counts once), per driver, added to the node's attached volumes, must not pass the
 * driver's limit. Unschedulable: evicting pods there would detach volumes.
 */
export function nodeVolumeLimits(
  newVolumes: AttachableVolumes,
  limits: ReadonlyMap<string, number>,
  attached: AttachableVolumes,
): FilterResult {
  if (newVolumes.size === 0 || limits.size === 0) return null;
  const attachedCount = new Map<string, number>();
  for (const driver of attached.values()) attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
  const newCount = new Map<string, number>();
  for (const [name, driver] of newVolumes) {
    if (!attached.has(name)) newCount.set(driver, (newCount.get(driver) ?? 0) + 1);
  }
  for (const [driver, count] of newCount) {
    const limit = limits.get(driver);
    if (limit !== undefined && (attachedCount.get(driver) ?? 0) + count > limit) {
      return unschedulable(MAX_VOLUME_COUNT_EXCEEDED);
    }
  }
  return null;
}

/** PreFilter's state: the pod's CSI volumes, and where to find a node's. */
export interface VolumeLimitsState {
  readonly attachable: AttachableVolumes;
  /** The node's limits per driver (see volumeLimits). */
  readonly limitsOf: (node: NodeInfo) => ReadonlyMap<string, number>;
  /** The node's attached CSI volumes (its pods', placed replacements included). */
  readonly attachedOn: (node: NodeInfo) => AttachableVolumes;
}

/** The Filter on the PreFilter's state: the pod's CSI volumes against the node's limits and attached volumes. */
export function volumeLimitsFilter(state: VolumeLimitsState, node: NodeInfo): Rejection | null {
  if (state.attachable.size === 0) return null;
  const limits = state.limitsOf(node);
  return limits.size === 0 ? null : nodeVolumeLimits(state.attachable, limits, state.attachedOn(node));
}

/**
 * What the filter reads of the cluster state's nodes, kept by position for every simulation of the state
 * (the filter asks it of every node a placement checks): each node's limits (a cordon changes no
 * allocatable, and the CSINode is the node's), and the CSI volumes its pods have attached.
 */
interface StateVolumes {
  readonly limits: Array<ReadonlyMap<string, number> | undefined>;
  readonly attached: Array<AttachableVolumes | undefined>;
}

function stateVolumes(cluster: ClusterState): StateVolumes {
  return cluster.stateMemo('volume-limits', (nodes) => ({
    limits: new Array<ReadonlyMap<string, number> | undefined>(nodes.length),
    attached: new Array<AttachableVolumes | undefined>(nodes.length),
  }));
}

/** The value kept at the node's position, worked out on first use (a node outside a state's list is not kept). */
function keptAt<T>(kept: Array<T | undefined>, node: NodeInfo, work: () => T): T {
  if (node.position < 0) return work();
  return (kept[node.position] ??= work());
}

function limitsOf(kept: StateVolumes, catalog: VolumeCatalog, node: NodeInfo): ReadonlyMap<string, number> {
  return keptAt(kept.limits, node, () => volumeLimits(node, catalog.csiNode(node.name)));
}

/**
 * The CSI volumes the node's pods (placed replacements included) have attached: the state's pods' kept
 * for every simulation of the state.
 */
function attachedVolumes(
  cluster: ClusterState,
  catalog: VolumeCatalog,
  kept: StateVolumes,
  node: NodeInfo,
): AttachableVolumes {
  const attached = keptAt(kept.attached, node, () =>
    attachableVolumes(
      cluster.assignedPodsOnNode(node.name).flatMap((pod) => existingClaims(pod, catalog)),
      catalog,
    ),
  );
  // Most placements' simulations have placed nothing yet.
  if (cluster.placed.length === 0) return attached;
  const placedHere = cluster.placed.filter((r) => r.node.name === node.name);
  if (placedHere.length === 0) return attached;
  const all = new Map(attached);
  for (const { pod } of placedHere) {
    const claims = replacementClaims(pod.pod, catalog).map((c) => c.claim);
    for (const [name, driver] of attachableVolumes(claims, catalog)) all.set(name, driver);
  }
  return all;
}

/** An existing pod's claims as the cluster has them (its ephemeral claims included). */
function existingClaims(pod: V1Pod, catalog: VolumeCatalog) {
  const namespace = pod.metadata?.namespace ?? 'default';
  return claimKeysOf(pod).map((key) => catalog.claim(namespace, key.slice(namespace.length + 1)));
}

/** A pod without CSI volumes, or whose volumes the snapshot cannot tell (see volumesUnknown), is skipped. */
export const nodeVolumeLimitsPlugin: FilterPlugin<VolumeLimitsState | null> = {
  name: 'NodeVolumeLimits',
  reads: ['Node', 'Pod', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSINode'],
  preFilter: (pod, cluster) => {
    const volumes = podVolumes(pod, cluster);
    if (!volumes || volumesUnknown(volumes) !== null) return null;
    const catalog = volumeCatalog(cluster.snapshot);
    const kept = stateVolumes(cluster);
    return {
      attachable: podAttachableVolumes(volumes.claims, catalog),
      limitsOf: (node) => limitsOf(kept, catalog, node),
      attachedOn: (node) => attachedVolumes(cluster, catalog, kept, node),
    };
  },
  skips: (_pod, state) => state === null || state.attachable.size === 0,
  filter: (_pod, node, state) => (state ? volumeLimitsFilter(state, node) : null),
};
