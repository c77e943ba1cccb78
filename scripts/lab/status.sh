#!/usr/bin/env bash
# Prints each component's state; exits 0 only when all run and the API is ready.
source "$(dirname "$0")/lib.sh"
source "$LAB_SCRIPTS/components.sh"

[[ -d "$LAB_DIR" ]] || { echo "lab: not running"; exit 1; }
ok=0
for c in "${COMPONENTS[@]}"; do
  if pid_alive "$LAB_DIR/pids/$c"; then echo "$c: running (pid $(cat "$LAB_DIR/pids/$c"))"; else echo "$c: stopped"; ok=1; fi
done
if lab_kubectl get --raw /readyz >/dev/null 2>&1; then
  echo "api: ready ($(lab_kubectl config view -o jsonpath='{.clusters[0].cluster.server}'))"
  lab_kubectl get nodes 2>/dev/null || true
else
  echo "api: not ready"; ok=1
fi
exit $ok
