/**
 * The command whose output `--snapshot` reads; quoted in every error so the fix is one copy-paste away.
 * Kept in a module of its own, with no imports, so that scripts run from source (the fidelity harness)
 * can load it without a build.
 */
export const SNAPSHOT_COMMAND =
  'kubectl get nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,replicationcontrollers,jobs,services,persistentvolumeclaims,persistentvolumes,storageclasses,csinodes,csidrivers,csistoragecapacities,namespaces,priorityclasses,resourceclaims,resourceclaimtemplates,deviceclasses,resourceslices,horizontalpodautoscalers -A -o json';
