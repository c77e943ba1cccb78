#!/usr/bin/env bash
# Prints the lab's cluster as the snapshot `kubectl maint plan --snapshot FILE` reads: the README's
# kubectl get command, JSON.
source "$(dirname "$0")/lib.sh"
lab_kubectl get nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,services,persistentvolumeclaims,persistentvolumes,storageclasses,csinodes,csidrivers,csistoragecapacities,namespaces,priorityclasses,resourceclaims,resourceclaimtemplates,deviceclasses,resourceslices,validatingadmissionpolicies,validatingadmissionpolicybindings,validatingwebhookconfigurations,mutatingwebhookconfigurations -A -o json
