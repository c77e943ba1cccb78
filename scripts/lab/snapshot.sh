#!/usr/bin/env bash
# Prints the lab's cluster as the snapshot `kubectl maint plan --snapshot FILE` reads: the README's
# kubectl get command, JSON, with the server's version (kubectl version's serverVersion) in the List.
source "$(dirname "$0")/lib.sh"
version=$(lab_kubectl version -o json)
lab_kubectl get nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,services,persistentvolumeclaims,persistentvolumes,storageclasses,csinodes,csidrivers,csistoragecapacities,namespaces,priorityclasses,resourceclaims,resourceclaimtemplates,deviceclasses,resourceslices,validatingadmissionpolicies,validatingadmissionpolicybindings,validatingwebhookconfigurations,mutatingwebhookconfigurations -A -o json |
  python3 -c 'import json, sys
snapshot = json.load(sys.stdin)
snapshot["serverVersion"] = json.loads(sys.argv[1])["serverVersion"]
json.dump(snapshot, sys.stdout, indent=4, ensure_ascii=False)
print()' "$version"
