import type { Snapshot, SnapshotKind, SnapshotSource } from './types.js';

/** Objects grouped by kind. A kind present in the map was loaded (even with no objects); an absent one was not. */
export type ObjectsByKind = ReadonlyMap<SnapshotKind, readonly object[]>;

/** The Snapshot field that holds each kind. */
const FIELD_OF_KIND = {
  Node: 'nodes',
  Pod: 'pods',
  PodDisruptionBudget: 'pdbs',
  ReplicaSet: 'replicaSets',
  Deployment: 'deployments',
  StatefulSet: 'statefulSets',
  DaemonSet: 'daemonSets',
  ReplicationController: 'replicationControllers',
  Job: 'jobs',
  Service: 'services',
  PersistentVolumeClaim: 'persistentVolumeClaims',
  PersistentVolume: 'persistentVolumes',
  StorageClass: 'storageClasses',
  CSINode: 'csiNodes',
  CSIDriver: 'csiDrivers',
  CSIStorageCapacity: 'csiStorageCapacities',
  Namespace: 'namespaces',
  PriorityClass: 'priorityClasses',
  ResourceClaim: 'resourceClaims',
  ResourceClaimTemplate: 'resourceClaimTemplates',
  DeviceClass: 'deviceClasses',
  ResourceSlice: 'resourceSlices',
  HorizontalPodAutoscaler: 'autoscalers',
  ValidatingAdmissionPolicy: 'validatingAdmissionPolicies',
  ValidatingAdmissionPolicyBinding: 'validatingAdmissionPolicyBindings',
  ValidatingWebhookConfiguration: 'validatingWebhooks',
  MutatingWebhookConfiguration: 'mutatingWebhooks',
} as const satisfies Record<SnapshotKind, keyof Snapshot>;

/**
 * Builds the immutable Snapshot every loader (live, file, embedded) returns. The objects are trusted to
 * be of their kind: the loaders sorted them by `kind` (file) or by the API they came from (live).
 */
export function assembleSnapshot(
  source: SnapshotSource,
  objects: ObjectsByKind,
  warnings: readonly string[],
  extras: Pick<Snapshot, 'admissionParams' | 'requester' | 'serverVersion' | 'notServed'> = {},
): Snapshot {
  const lists = Object.fromEntries(
    Object.entries(FIELD_OF_KIND).map(([kind, field]) => [
      field,
      Object.freeze([...(objects.get(kind as SnapshotKind) ?? [])]),
    ]),
  );
  return Object.freeze({
    source,
    kinds: new Set(objects.keys()),
    ...lists,
    warnings: Object.freeze([...warnings]),
    ...Object.fromEntries(Object.entries(extras).filter(([, value]) => value !== undefined)),
  }) as unknown as Snapshot;
}
