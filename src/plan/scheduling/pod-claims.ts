import type { V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { claimKey, type VolumeCatalog } from './volume-catalog.js';

/** One PersistentVolumeClaim a pod mounts, named or from a generic ephemeral volume. */
export interface PodClaim {
  /** The pod's volume. */
  readonly volume: string;
  /** The claim's name: `claimName`, or `<pod>-<volume>` for an ephemeral volume (`ephemeral.VolumeClaimName`). */
  readonly name: string;
  readonly ephemeral: boolean;
  /** The claim as the scheduler would find it; undefined when it does not exist. */
  readonly claim: V1PersistentVolumeClaim | undefined;
}

/** Whether a pod mounts any claim: the volume plugins have nothing to check otherwise (their PreFilter skips). */
export function hasClaimVolumes(pod: V1Pod): boolean {
  const volumes = pod.spec?.volumes;
  if (!volumes) return false;
  for (const v of volumes) if (v.persistentVolumeClaim || v.ephemeral) return true;
  return false;
}

/**
 * The claims of a replacement pod, in volume order. A named claim is the cluster's own: a StatefulSet's
 * replacement keeps its pod name and so its `volumeClaimTemplates` claims, and any other controller's
 * copy names the same claim. A generic ephemeral volume's claim belongs to the pod that owned it and is
 * deleted with it: the ephemeral-volume controller creates a new one from the template for the
 * replacement, unbound, with the default StorageClass when the template names none (admission's rule).
 */
export function replacementClaims(pod: V1Pod, catalog: VolumeCatalog): PodClaim[] {
  const namespace = pod.metadata?.namespace ?? 'default';
  const podName = pod.metadata?.name ?? '';
  const claims: PodClaim[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) {
      const name = v.persistentVolumeClaim.claimName;
      claims.push({ volume: v.name, name, ephemeral: false, claim: catalog.claim(namespace, name) });
    } else if (v.ephemeral) {
      const name = `${podName}-${v.name}`;
      const template = v.ephemeral.volumeClaimTemplate;
      const spec = { accessModes: [], resources: {}, ...template?.spec };
      const className = spec.storageClassName ?? catalog.defaultClass;
      const claim: V1PersistentVolumeClaim = {
        metadata: { name, namespace, labels: template?.metadata?.labels, annotations: template?.metadata?.annotations },
        spec: className === undefined ? spec : { ...spec, storageClassName: className },
        status: { phase: 'Pending' },
      };
      claims.push({ volume: v.name, name, ephemeral: true, claim });
    }
  }
  return claims;
}

/** The claims a pod mounts, as `<namespace>/<name>` (an ephemeral volume's claim is `<pod>-<volume>`). */
export function claimKeysOf(pod: V1Pod): string[] {
  const namespace = pod.metadata?.namespace ?? 'default';
  const keys: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) keys.push(claimKey(namespace, v.persistentVolumeClaim.claimName));
    else if (v.ephemeral) keys.push(claimKey(namespace, `${pod.metadata?.name ?? ''}-${v.name}`));
  }
  return keys;
}
