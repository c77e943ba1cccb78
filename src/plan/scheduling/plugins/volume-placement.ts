import type { NodeInfo } from '../node-info.js';
import { capacityUnpublished, findPodVolumes, volumeBinding, type VolumeBindingState } from './volume-binding.js';
import { type VolumeTopology, volumeZone } from './volume-zone.js';

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
