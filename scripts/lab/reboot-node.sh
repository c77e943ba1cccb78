#!/usr/bin/env bash
# reboot-node.sh NODE: what `kubectl maint run … -- reboot-node.sh {node}` runs in the lab to simulate a
# reboot of a KWOK node. KWOK keeps a node Ready for as long as it manages it, so the script takes the node
# away from KWOK (drops the kwok.x-k8s.io/node annotation the lab's KWOK selects nodes by), reports it
# NotReady, waits REBOOT_SECONDS (default 2), gives it a new bootID and hands it back: KWOK's
# node-initialize stage then sets Ready=True again and keeps the new bootID.
#
# Records each call (its arguments and MAINT_NODE, MAINT_RUN, KUBECONFIG) as one line in $REBOOT_LOG when
# set. REBOOT_FAIL_NODE=NODE makes the call for that node fail (exit 1) after recording it.
set -euo pipefail
node=${1:?usage: reboot-node.sh NODE}
if [[ -n "${REBOOT_LOG:-}" ]]; then
  printf '%s MAINT_NODE=%s MAINT_RUN=%s KUBECONFIG=%s\n' "$*" "${MAINT_NODE:-}" "${MAINT_RUN:-}" "${KUBECONFIG:-}" >>"$REBOOT_LOG"
fi
echo "rebooting $node"
if [[ "${REBOOT_FAIL_NODE:-}" == "$node" ]]; then
  echo "firmware flash failed on $node" >&2
  exit 1
fi
kubectl annotate node "$node" kwok.x-k8s.io/node- >/dev/null
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
kubectl patch node "$node" --subresource=status --type=strategic -p \
  "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\",\"reason\":\"Rebooting\",\"message\":\"simulated reboot\",\"lastHeartbeatTime\":\"$now\",\"lastTransitionTime\":\"$now\"}]}}" >/dev/null
sleep "${REBOOT_SECONDS:-2}"
boot_id=$(cat /proc/sys/kernel/random/uuid)
kubectl patch node "$node" --subresource=status --type=merge -p "{\"status\":{\"nodeInfo\":{\"bootID\":\"$boot_id\"}}}" >/dev/null
kubectl annotate node "$node" kwok.x-k8s.io/node=fake >/dev/null
echo "$node is back with bootID $boot_id"
