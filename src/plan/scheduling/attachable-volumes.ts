import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { claimClass, claimKey, type VolumeCatalog } from './volume-catalog.js';

/** Attachable volumes: unique name (`<driver>/<volume handle>`) to the driver whose limit it counts against. */
export type AttachableVolumes = ReadonlyMap<string, string>;

/**
 * `filterAttachableVolumes`: each claim's CSI volume, from its bound PV (`spec.csi` driver and handle), or
 * for an unbound claim (or one whose PV does not exist) from its StorageClass's provisioner with a handle
 * made of the claim's name. A PV that is not CSI is not counted (in-tree volumes migrated to CSI are not
 * translated); a claim with no class, or an unknown class, is not counted either.
 */
export function attachableVolumes(
  claims: readonly (V1PersistentVolumeClaim | undefined)[],
  catalog: VolumeCatalog,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const claim of claims) {
    if (!claim) continue;
    const found = csiVolumeOf(claim, catalog);
    if (found) out.set(`${found.driver}/${found.handle}`, found.driver);
  }
  return out;
}

function csiVolumeOf(
  claim: V1PersistentVolumeClaim,
  catalog: VolumeCatalog,
): { driver: string; handle: string } | null {
  const volumeName = claim.spec?.volumeName ?? '';
  const volume = volumeName === '' ? undefined : catalog.volume(volumeName);
  if (volume) {
    const csi = volume.spec?.csi;
    return csi?.driver && csi.volumeHandle ? { driver: csi.driver, handle: csi.volumeHandle } : null;
  }
  const className = claimClass(claim);
  const provisioner = className === '' ? undefined : catalog.storageClass(className)?.provisioner;
  if (!provisioner) return null;
  return {
    driver: provisioner,
    handle: `unbound-${claimKey(claim.metadata?.namespace ?? 'default', claim.metadata?.name ?? '')}`,
  };
}
