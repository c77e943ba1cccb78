import type { ClusterState } from './framework.js';
import type { NodeInfo } from './node-info.js';
import { hasClaimVolumes, type PodClaim, replacementClaims } from './pod-claims.js';
import type { PodInfo } from './pod-info.js';
import {
  capacityUnpublished,
  findPodVolumes,
  volumeBinding,
  volumeBindingPreFilter,
  type VolumeBindingPreFilter,
  type VolumeBindingState,
} from './plugins/volume-binding.js';
import { type VolumeTopology, volumeZone } from './plugins/volume-zone.js';
import type { VolumeCatalog } from './volume-catalog.js';

/**
 * The pod's claims, as the four volume plugins' PreFilters (VolumeRestrictions, NodeVolumeLimits,
 * VolumeBinding, VolumeZone) find them, and VolumeBinding's answer on them: whether the snapshot can
 * tell where they allow the pod at all (a kind not read: then every volume filter passes).
 */
export interface PodVolumes {
  readonly claims: readonly PodClaim[];
  readonly binding: VolumeBindingPreFilter;
}

/**
 * Read once per pod and catalog, not once per plugin: the four PreFilters of one placement (and those run
 * again by preemption's dry run) ask for the same claims.
 */
const read = new WeakMap<PodInfo, { readonly catalog: VolumeCatalog; readonly volumes: PodVolumes }>();

/** The pod's claims and VolumeBinding's answer on them; null for a pod without claims (the volume plugins Skip). */
export function podVolumes(pod: PodInfo, cluster: ClusterState): PodVolumes | null {
  if (!hasClaimVolumes(pod.pod)) return null;
  const catalog = cluster.volumes;
  const kept = read.get(pod);
  if (kept?.catalog === catalog) return kept.volumes;
  const claims = replacementClaims(pod.pod, catalog);
  const volumes = { claims, binding: volumeBindingPreFilter(claims, catalog) };
  read.set(pod, { catalog, volumes });
  return volumes;
}

/** Why the snapshot cannot tell where the pod's volumes allow it (a kind not read), null when it can or there are none. */
export function volumesUnknown(volumes: PodVolumes | null): string | null {
  return volumes && 'unknown' in volumes.binding ? volumes.binding.unknown : null;
}

/**
 * Whether the node is one the pod's volumes allow: VolumeBinding and VolumeZone, which read only the node
 * and the storage objects. A replacement whose volumes allow only drained nodes has no node until one
 * of them returns.
 */
export function volumesAllow(binding: VolumeBindingState, zones: readonly VolumeTopology[], node: NodeInfo): boolean {
  return volumeBinding(binding, node) === null && volumeZone(zones, node) === null;
}

/**
 * Why where the pod lands does not settle whether it runs: a claim provisioned there by a driver that
 * publishes no capacity (the provisioner may still fail, and the scheduler then tries elsewhere). Null
 * when the placement is the scheduler's final answer as far as volumes go.
 */
export function provisioningUnknown(state: VolumeBindingState, node: NodeInfo): string | null {
  for (const { className } of findPodVolumes(state, node).provisioned) {
    const provisioner = state.catalog.storageClass(className)?.provisioner ?? '';
    if (!state.catalog.has('CSIDriver') || capacityUnpublished(provisioner, state.catalog)) {
      return `VolumeBinding: ${provisioner} provisions a new volume (StorageClass ${className}) where the replacement lands and publishes no storage capacity, so whether it can is not known`;
    }
  }
  return null;
}
