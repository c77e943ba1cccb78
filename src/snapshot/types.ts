import type {
  V1CSIDriver,
  V1CSINode,
  V1CSIStorageCapacity,
  V1DaemonSet,
  V1DeviceClass,
  V1Deployment,
  V1Job,
  V1Namespace,
  V1Node,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodDisruptionBudget,
  V1ReplicaSet,
  V1PriorityClass,
  V1ReplicationController,
  ResourceV1ResourceClaim,
  V1ResourceClaimTemplate,
  V1ResourceSlice,
  V1Service,
  V1StatefulSet,
  V1StorageClass,
  V2HorizontalPodAutoscaler,
  V1MutatingWebhookConfiguration,
  V1UserInfo,
  V1ValidatingAdmissionPolicy,
  V1ValidatingAdmissionPolicyBinding,
  V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';

/** The kinds the volume filters read (VolumeBinding, VolumeZone, VolumeRestrictions, NodeVolumeLimits). */
export const VOLUME_KINDS = [
  'PersistentVolumeClaim',
  'PersistentVolume',
  'StorageClass',
  'CSINode',
  'CSIDriver',
  'CSIStorageCapacity',
] as const;
export type VolumeKind = (typeof VOLUME_KINDS)[number];

/**
 * A live read's warning that a volume kind could not be listed ("… (PersistentVolumeClaim objects not
 * loaded)"). It matters only to replacements with claims, so the plan says it as a caveat on those pods
 * instead of a warning on every plan.
 */
export function isVolumeKindWarning(warning: string): boolean {
  return VOLUME_KINDS.some((kind) => isKindWarning(warning, kind));
}

/**
 * A live read's warning about a kind that judges only some replacements (the volume kinds, Namespaces for
 * a namespaceSelector, PriorityClasses for a pod without spec.priority): the plan says it as a caveat on
 * the pods it concerns instead of a warning on every plan.
 */
export function isScopedKindWarning(warning: string): boolean {
  return (
    isVolumeKindWarning(warning) ||
    isDraKindWarning(warning) ||
    isAdmissionKindWarning(warning) ||
    isKindWarning(warning, 'Namespace') ||
    isKindWarning(warning, 'PriorityClass')
  );
}

/** A live read's warning that `kind` could not be listed. */
export function isKindWarning(warning: string, kind: SnapshotKind): boolean {
  return warning.endsWith(`(${kind} objects not loaded)`);
}

/** The kinds the DynamicResources filter reads (resource.k8s.io/v1). */
export const DRA_KINDS = ['ResourceClaim', 'ResourceClaimTemplate', 'DeviceClass', 'ResourceSlice'] as const;
export type DraKind = (typeof DRA_KINDS)[number];

/**
 * A live read's warning that a DRA kind could not be listed: like a volume kind's, it matters only to
 * replacements with resource claims.
 */
export function isDraKindWarning(warning: string): boolean {
  return DRA_KINDS.some((kind) => warning.endsWith(`(${kind} objects not loaded)`));
}

/**
 * The admission chain's configuration an eviction meets (admissionregistration.k8s.io/v1): the policies and
 * their bindings, the webhooks. Like a volume kind, one that could not be read concerns only the pods the
 * drain removes, said on them as a caveat.
 */
export const ADMISSION_KINDS = [
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
] as const;
export type AdmissionKind = (typeof ADMISSION_KINDS)[number];

/** A live read's warning that an admission kind could not be listed. */
export function isAdmissionKindWarning(warning: string): boolean {
  return ADMISSION_KINDS.some((kind) => warning.endsWith(`(${kind} objects not loaded)`));
}

/**
 * The objects of one kind a ValidatingAdmissionPolicy takes its params from (`spec.paramKind`), read after
 * the policies. `objects` is null when they could not be read (`why` says why): the policies using them are
 * then unknown.
 */
export interface AdmissionParams {
  readonly apiVersion: string;
  readonly kind: string;
  /** Whether the kind is namespaced (discovery); null when unknown (a file: from the objects' namespaces). */
  readonly namespaced: boolean | null;
  readonly objects: readonly object[] | null;
  readonly why?: string;
}

/** The kinds a snapshot can hold, in the order `kubectl get` lists them in SNAPSHOT_COMMAND (docs/planning.md). */
export const SNAPSHOT_KINDS = [
  'Node',
  'Pod',
  'PodDisruptionBudget',
  'ReplicaSet',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicationController',
  'Job',
  'Service',
  ...VOLUME_KINDS,
  'Namespace',
  'PriorityClass',
  ...DRA_KINDS,
  'HorizontalPodAutoscaler',
  ...ADMISSION_KINDS,
] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/**
 * Kinds a live read lists only when the command needs them: HorizontalPodAutoscalers for --surge (a user
 * who never surges needs no right to list them, and no warning when they may not).
 */
export const ON_DEMAND_KINDS: readonly SnapshotKind[] = ['HorizontalPodAutoscaler'];

/**
 * A live read fails without nodes and pods; every other kind only sharpens the plan. (A file needs only
 * nodes: one with no pod makes an incomplete plan, see load-file.ts.)
 */
export const REQUIRED_KINDS: readonly SnapshotKind[] = ['Node', 'Pod'];

export type SnapshotSource =
  | { readonly type: 'live'; readonly context: string; readonly server: string }
  | { readonly type: 'file'; readonly path: string }
  | { readonly type: 'embedded'; readonly name: string };

/**
 * A typed, immutable picture of the cluster. Objects keep the API's own shape (the JSON that
 * `kubectl get -o json` prints, typed with client-node's models); timestamps may be strings (file) or
 * Dates (live), so code only tests them for presence or converts them with `toEpochSeconds`.
 *
 * `kinds` lists the kinds that were actually read. A kind that is absent was not loaded (so the plan
 * degrades with a caveat), which is different from a kind that was loaded and has no objects.
 */
export interface Snapshot {
  readonly source: SnapshotSource;
  readonly kinds: ReadonlySet<SnapshotKind>;
  readonly nodes: readonly V1Node[];
  readonly pods: readonly V1Pod[];
  readonly pdbs: readonly V1PodDisruptionBudget[];
  readonly replicaSets: readonly V1ReplicaSet[];
  readonly deployments: readonly V1Deployment[];
  readonly statefulSets: readonly V1StatefulSet[];
  readonly daemonSets: readonly V1DaemonSet[];
  readonly replicationControllers: readonly V1ReplicationController[];
  readonly jobs: readonly V1Job[];
  readonly services: readonly V1Service[];
  readonly persistentVolumeClaims: readonly V1PersistentVolumeClaim[];
  readonly persistentVolumes: readonly V1PersistentVolume[];
  readonly storageClasses: readonly V1StorageClass[];
  readonly csiNodes: readonly V1CSINode[];
  readonly csiDrivers: readonly V1CSIDriver[];
  readonly csiStorageCapacities: readonly V1CSIStorageCapacity[];
  /** Their labels, for pod (anti-)affinity terms with a namespaceSelector. */
  readonly namespaces: readonly V1Namespace[];
  /** The priority of a pod whose spec.priority is not set, and preemptionPolicy. */
  readonly priorityClasses: readonly V1PriorityClass[];
  readonly resourceClaims: readonly ResourceV1ResourceClaim[];
  readonly resourceClaimTemplates: readonly V1ResourceClaimTemplate[];
  readonly deviceClasses: readonly V1DeviceClass[];
  readonly resourceSlices: readonly V1ResourceSlice[];
  /** autoscaling/v2; read live only for --surge. */
  readonly autoscalers: readonly V2HorizontalPodAutoscaler[];
  readonly validatingAdmissionPolicies: readonly V1ValidatingAdmissionPolicy[];
  readonly validatingAdmissionPolicyBindings: readonly V1ValidatingAdmissionPolicyBinding[];
  readonly validatingWebhooks: readonly V1ValidatingWebhookConfiguration[];
  readonly mutatingWebhooks: readonly V1MutatingWebhookConfiguration[];
  /** The params of the policies that take them (paramKind), one entry per kind. */
  readonly admissionParams?: readonly AdmissionParams[];
  /**
   * Who the API server takes the caller for (a SelfSubjectReview): the `request.userInfo` admission sees for
   * the drain's evictions. Absent when not known (a snapshot file, a server that refused the review).
   */
  readonly requester?: V1UserInfo;
  /** Problems met while loading that did not stop it (unknown kinds skipped, forbidden lists...). */
  readonly warnings: readonly string[];
  /**
   * The server's version as `/version` says it (`gitVersion`, "v1.34.4"): read live, or recorded in the
   * file. Absent: not known (the plan then models the newest supported minor, and says so).
   */
  readonly serverVersion?: string | undefined;
  /**
   * Kinds the server does not serve (a live read), loaded with no objects: no pod of the cluster can use
   * them (DRA on a server without resource.k8s.io), unlike a kind that could not be read.
   */
  readonly notServed?: readonly SnapshotKind[] | undefined;
}
