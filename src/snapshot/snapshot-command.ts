/**
 * The command whose output `--snapshot` reads; quoted in every error so the fix is one copy-paste away.
 * Kept in a module of its own, with no imports, so that scripts run from source (the fidelity harness)
 * can load it without a build.
 */

/** The resources it lists: every kind a snapshot can hold, in SNAPSHOT_KINDS' order. */
export const SNAPSHOT_RESOURCES = [
  'nodes',
  'pods',
  'poddisruptionbudgets',
  'replicasets',
  'deployments',
  'statefulsets',
  'daemonsets',
  'replicationcontrollers',
  'jobs',
  'services',
  'persistentvolumeclaims',
  'persistentvolumes',
  'storageclasses',
  'csinodes',
  'csidrivers',
  'csistoragecapacities',
  'namespaces',
  'priorityclasses',
  'resourceclaims',
  'resourceclaimtemplates',
  'deviceclasses',
  'resourceslices',
  'horizontalpodautoscalers',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
] as const;

export const SNAPSHOT_COMMAND = `kubectl get ${SNAPSHOT_RESOURCES.join(',')} -A -o json`;
