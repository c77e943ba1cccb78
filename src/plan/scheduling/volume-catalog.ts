import type {
  V1CSIDriver,
  V1CSINode,
  V1CSIStorageCapacity,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1StorageClass,
} from '@kubernetes/client-node';
import type { Snapshot, VolumeKind } from '../../snapshot/types.js';
import { nameOf, namespaceOf, perSnapshot } from './snapshot-objects.js';

/** The annotation the PV controller sets once it has bound a claim (`pv.kubernetes.io/bind-completed`). */
export const BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** The node a WaitForFirstConsumer claim was provisioned for (`volume.kubernetes.io/selected-node`). */
export const SELECTED_NODE = 'volume.kubernetes.io/selected-node';
const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';
const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';

/**
 * The storage objects of a snapshot by name, as the scheduler's listers and assume caches serve them to
 * the volume plugins; built once per snapshot.
 */
export class VolumeCatalog {
  private readonly claims = new Map<string, V1PersistentVolumeClaim>();
  private readonly volumes = new Map<string, V1PersistentVolume>();
  private readonly volumesByClass = new Map<string, V1PersistentVolume[]>();
  private readonly classes = new Map<string, V1StorageClass>();
  private readonly csiNodes = new Map<string, V1CSINode>();
  private readonly drivers = new Map<string, V1CSIDriver>();
  private readonly capacitiesByClass = new Map<string, V1CSIStorageCapacity[]>();
  private readonly kinds: Snapshot['kinds'];
  /** The default StorageClass admission gives a claim that names none (the newest of several), if any. */
  readonly defaultClass: string | undefined;

  constructor(snapshot: Snapshot) {
    this.kinds = snapshot.kinds;
    for (const c of snapshot.persistentVolumeClaims) this.claims.set(claimKey(namespaceOf(c), nameOf(c)), c);
    for (const v of snapshot.persistentVolumes) {
      this.volumes.set(nameOf(v), v);
      push(this.volumesByClass, v.spec?.storageClassName ?? '', v);
    }
    for (const c of snapshot.storageClasses) this.classes.set(nameOf(c), c);
    for (const n of snapshot.csiNodes) this.csiNodes.set(nameOf(n), n);
    for (const d of snapshot.csiDrivers) this.drivers.set(nameOf(d), d);
    for (const c of snapshot.csiStorageCapacities) push(this.capacitiesByClass, c.storageClassName, c);
    const defaults = snapshot.storageClasses.filter((c) => c.metadata?.annotations?.[DEFAULT_CLASS] === 'true');
    this.defaultClass = defaults.length > 0 ? nameOf(newest(defaults)) : undefined;
  }

  /** Whether the snapshot read this kind (an absent kind is unknown, not empty). */
  has(kind: VolumeKind): boolean {
    return this.kinds.has(kind);
  }

  claim(namespace: string, name: string): V1PersistentVolumeClaim | undefined {
    return this.claims.get(claimKey(namespace, name));
  }

  volume(name: string): V1PersistentVolume | undefined {
    return this.volumes.get(name);
  }

  /** The PVs of a class (`pvCache.ListPVs(class)`): "" is the PVs without a class. */
  volumesOfClass(className: string): readonly V1PersistentVolume[] {
    return this.volumesByClass.get(className) ?? [];
  }

  storageClass(name: string): V1StorageClass | undefined {
    return this.classes.get(name);
  }

  csiNode(nodeName: string): V1CSINode | undefined {
    return this.csiNodes.get(nodeName);
  }

  csiDriver(name: string): V1CSIDriver | undefined {
    return this.drivers.get(name);
  }

  capacitiesOfClass(className: string): readonly V1CSIStorageCapacity[] {
    return this.capacitiesByClass.get(className) ?? [];
  }
}

/** The catalog of a snapshot's storage objects, built on first use. */
export const volumeCatalog = perSnapshot((snapshot) => new VolumeCatalog(snapshot));

export const claimKey = (namespace: string, name: string) => `${namespace}/${name}`;

/** `GetPersistentVolumeClaimClass`: spec.storageClassName, else the beta annotation, else "". */
export function claimClass(claim: V1PersistentVolumeClaim): string {
  return claim.spec?.storageClassName ?? claim.metadata?.annotations?.[BETA_CLASS] ?? '';
}

/** `isPVCFullyBound`: a volume name and the PV controller's bind-completed annotation. */
export function isClaimBound(claim: V1PersistentVolumeClaim): boolean {
  return Boolean(claim.spec?.volumeName) && claim.metadata?.annotations?.[BIND_COMPLETED] !== undefined;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function newest<T extends { metadata?: { creationTimestamp?: Date | string; name?: string } }>(list: readonly T[]): T {
  const time = (o: T) => new Date(o.metadata?.creationTimestamp ?? 0).getTime();
  return list.reduce((a, b) => (time(b) > time(a) || (time(b) === time(a) && nameOf(b) < nameOf(a)) ? b : a));
}
