/**
 * Every kind the plugin reads across the cluster, with its collection's path: the one place a new kind
 * is added (reads, the cache and its watches take the list from here). The resource name RBAC and kubectl
 * know it by follows from the path.
 */
export const KIND_PATHS = {
  Node: '/api/v1/nodes',
  Pod: '/api/v1/pods',
  PodDisruptionBudget: '/apis/policy/v1/poddisruptionbudgets',
  ReplicaSet: '/apis/apps/v1/replicasets',
  Deployment: '/apis/apps/v1/deployments',
  StatefulSet: '/apis/apps/v1/statefulsets',
  DaemonSet: '/apis/apps/v1/daemonsets',
  ReplicationController: '/api/v1/replicationcontrollers',
  Job: '/apis/batch/v1/jobs',
  Service: '/api/v1/services',
  PersistentVolumeClaim: '/api/v1/persistentvolumeclaims',
  PersistentVolume: '/api/v1/persistentvolumes',
  StorageClass: '/apis/storage.k8s.io/v1/storageclasses',
  CSINode: '/apis/storage.k8s.io/v1/csinodes',
  CSIDriver: '/apis/storage.k8s.io/v1/csidrivers',
  CSIStorageCapacity: '/apis/storage.k8s.io/v1/csistoragecapacities',
  Namespace: '/api/v1/namespaces',
  PriorityClass: '/apis/scheduling.k8s.io/v1/priorityclasses',
  ResourceClaim: '/apis/resource.k8s.io/v1/resourceclaims',
  ResourceClaimTemplate: '/apis/resource.k8s.io/v1/resourceclaimtemplates',
  DeviceClass: '/apis/resource.k8s.io/v1/deviceclasses',
  ResourceSlice: '/apis/resource.k8s.io/v1/resourceslices',
  HorizontalPodAutoscaler: '/apis/autoscaling/v2/horizontalpodautoscalers',
  ValidatingAdmissionPolicy: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
  ValidatingAdmissionPolicyBinding: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
  ValidatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  MutatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
} as const;

/** The kinds this module can list across the cluster. */
export type ListableKind = keyof typeof KIND_PATHS;

/** The plural resource with its group, as RBAC and kubectl name it: `pods`, `poddisruptionbudgets.policy`. */
export function resourceOf(kind: ListableKind): string {
  const parts = KIND_PATHS[kind].split('/');
  const plural = parts.at(-1)!;
  return parts[1] === 'apis' ? `${plural}.${parts[2]!}` : plural;
}
