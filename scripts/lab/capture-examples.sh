#!/usr/bin/env bash
# Regenerates the bundled example snapshots (examples/*.json) from the lab's scenarios. Runs its own
# lab in a separate directory so that it never disturbs a lab in use.
source "$(dirname "$0")/lib.sh"
export LAB_DIR="${TMPDIR:-/tmp}/kubectl-maint-lab-capture"
KUBECONFIG_LAB="$LAB_DIR/kubeconfig"
examples="$LAB_SCRIPTS/../../examples"
trap '"$LAB_SCRIPTS/down.sh" >/dev/null 2>&1' EXIT
"$LAB_SCRIPTS/up.sh"
for pair in hello:hello hello-ignore:hello-blocked; do
  scenario=${pair%%:*} file=${pair##*:}
  "$LAB_SCRIPTS/seed.sh" "$scenario"
  "$LAB_SCRIPTS/snapshot.sh" >"$examples/$file.json"
  log "captured $scenario into examples/$file.json"
done
