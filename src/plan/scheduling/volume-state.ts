import type { ClusterState, Rejection } from './framework.js';
import type { NodeInfo } from './node-info.js';
import { hasClaimVolumes, replacementClaims } from './pod-claims.js';
import type { PodInfo } from './pod-info.js';
import { type AttachableVolumes, podAttachableVolumes } from './plugins/node-volume-limits.js';
import {
  findPodVolumes,
  volumeBinding,
  volumeBindingPreFilter,
  type VolumeBindingState,
} from './plugins/volume-binding.js';
import { volumeRestrictionsPreFilter } from './plugins/volume-restrictions.js';
import { type VolumeTopology, volumeZone, volumeZonePreFilter } from './plugins/volume-zone.js';
import { capacityUnpublished } from './plugins/volume-binding.js';
import type { VolumeCatalog } from './volume-catalog.js';

/**
 * What the four volume plugins' PreFilters worked out for a pod with claims, in the default profile's
 * order (VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone).
 */
export interface VolumeState {
  /** A PreFilter's rejection of every node (a claim missing, Lost, being deleted, unbound and Immediate…). */
  readonly rejection: Rejection | null;
  /** Why the snapshot cannot tell where the volumes allow the pod (a kind not read); the filters then pass. */
  readonly unknown: string | null;
  /** VolumeRestrictions: ReadWriteOncePod claims some other pod uses. */
  readonly conflicts: number;
  /** NodeVolumeLimits: the pod's CSI volumes. */
  readonly attachable: AttachableVolumes;
  /** VolumeBinding's state; null when unknown or rejected. */
  readonly binding: VolumeBindingState | null;
  /** VolumeZone: its bound PVs' zone and region labels. */
  readonly zones: readonly VolumeTopology[];
  readonly catalog: VolumeCatalog;
  /** The node's attached CSI volumes, for NodeVolumeLimits. */
  readonly attachedOn: (node: NodeInfo) => AttachableVolumes;
}

const NONE: AttachableVolumes = new Map();

/** The volume plugins' PreFilters; null for a pod without claims (they Skip). */
export function volumesPreFilter(pod: PodInfo, cluster: ClusterState): VolumeState | null {
  if (!hasClaimVolumes(pod.pod)) return null;
  const catalog = cluster.volumes;
  const claims = replacementClaims(pod.pod, catalog);
  const base = {
    rejection: null,
    unknown: null,
    conflicts: 0,
    attachable: NONE,
    binding: null,
    zones: [],
    catalog,
    attachedOn: (node: NodeInfo) => cluster.attachedVolumes(node),
  };
  const binding = volumeBindingPreFilter(claims, catalog);
  if ('unknown' in binding) return { ...base, unknown: binding.unknown };
  const restrictions = volumeRestrictionsPreFilter(claims, (key) => cluster.claimInUse(key));
  if ('rejection' in restrictions) return { ...base, rejection: restrictions.rejection };
  if ('rejection' in binding) return { ...base, rejection: binding.rejection };
  const zones = volumeZonePreFilter(claims, catalog);
  if ('rejection' in zones) return { ...base, rejection: zones.rejection };
  return {
    ...base,
    conflicts: restrictions.conflicts,
    attachable: podAttachableVolumes(claims, catalog),
    binding: binding.state,
    zones: zones.topologies,
  };
}

/**
 * Whether the node is one the pod's volumes allow: VolumeBinding and VolumeZone, which read only the node
 * and the storage objects. A replacement whose volumes allow only drained nodes has no node until one
 * of them returns.
 */
export function volumesAllow(state: VolumeState, node: NodeInfo): boolean {
  if (!state.binding) return true;
  return volumeBinding(state.binding, node) === null && volumeZone(state.zones, node) === null;
}

/**
 * Why where the pod lands does not settle whether it runs: a claim provisioned there by a driver that
 * publishes no capacity (the provisioner may still fail, and the scheduler then tries elsewhere). Null
 * when the placement is the scheduler's final answer as far as volumes go.
 */
export function provisioningUnknown(state: VolumeState, node: NodeInfo): string | null {
  if (!state.binding) return null;
  for (const { className } of findPodVolumes(state.binding, node).provisioned) {
    const provisioner = state.catalog.storageClass(className)?.provisioner ?? '';
    if (!state.catalog.has('CSIDriver') || capacityUnpublished(provisioner, state.catalog)) {
      return `VolumeBinding: ${provisioner} provisions a new volume (StorageClass ${className}) where the replacement lands and publishes no storage capacity, so whether it can is not known`;
    }
  }
  return null;
}
