#!/usr/bin/env bash
# seed SCENARIO: resets the lab's workloads and nodes, applies the scenario's steps
# (scripts/lab/scenarios/SCENARIO.steps: one line per step, kustomize directories applied together)
# and waits after each step until it has settled: nodes Ready, rollouts complete, every pod Ready,
# and every budget's status observed by the disruption controller.
source "$(dirname "$0")/lib.sh"

scenario=${1:?usage: seed SCENARIO (one of: $(cd "$LAB_SCRIPTS/scenarios" && ls ./*.steps | sed 's|./||; s|.steps||' | tr '\n' ' '))}
steps_file="$LAB_SCRIPTS/scenarios/$scenario.steps"
[[ -f "$steps_file" ]] || die "unknown scenario '$scenario' (no $steps_file)"
lab_kubectl get --raw /readyz >/dev/null 2>&1 || die "the lab is not up (npm run lab -- up)"
started=$SECONDS
SCENARIO_LABEL=lab.kubectl-maint.io/scenario=true

reset() {
  # Force-delete so that nothing lingers for a grace period: this is the lab's own teardown, not a drain.
  # Order matters: the workloads go first (so no controller recreates what is force-deleted next), then
  # every pod, then the nodes.
  local namespaces
  namespaces=$(lab_kubectl get namespaces -l "$SCENARIO_LABEL" -o name)
  lab_kubectl delete daemonsets -n kube-system -l "$SCENARIO_LABEL" --ignore-not-found --wait=false >/dev/null
  # shellcheck disable=SC2086
  [[ -z "$namespaces" ]] || lab_kubectl delete $namespaces --wait=false >/dev/null
  # Applying a DaemonSet of the same name while the old one is still being deleted fails with
  # "object has been deleted"; its old pods must not be adopted by the new one either.
  wait_until 60 "scenario DaemonSets to be deleted" gone daemonsets -n kube-system -l "$SCENARIO_LABEL"
  wait_until 60 "every pod to be deleted" force_delete_pods
  lab_kubectl delete nodes --all --wait=true >/dev/null
  # shellcheck disable=SC2086
  [[ -z "$namespaces" ]] || wait_until 120 "scenario namespaces to be deleted" gone $namespaces
}

# Succeeds once no pod is left; force-deletes the ones it finds (controllers may still be creating some).
force_delete_pods() {
  gone pods -A && return 0
  lab_kubectl delete pods --all-namespaces --all --force --grace-period=0 >/dev/null 2>&1 || true
  return 1
}

# Prints what a failed wait needs to be understood: the lab's nodes, pods and workloads.
dump_state() {
  {
    echo "lab: state when the scenario did not settle:"
    lab_kubectl get nodes -o wide
    lab_kubectl get deployments,daemonsets,replicasets,pdb -A
    lab_kubectl get pods -A -o wide
  } >&2 2>&1 || true
}

gone() { ! lab_kubectl get "$@" -o name 2>/dev/null | grep -q .; }

budgets_observed() {
  # Every budget's status.observedGeneration has caught up with its generation.
  lab_kubectl get pdb -A -o jsonpath='{range .items[*]}{.metadata.generation}={.status.observedGeneration}{"\n"}{end}' |
    awk -F= '$1 != $2 { bad = 1 } END { exit bad }'
}

pods_settled() {
  # No pod is Pending, terminating or unready (Job pods that finished are fine).
  lab_kubectl get pods -A -o jsonpath='{range .items[*]}{.status.phase} {.metadata.deletionTimestamp} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' |
    awk '$1 == "Succeeded" { next } $1 != "Running" || NF != 2 || $2 != "True" { bad = 1 } END { exit bad }'
}

settle() {
  # Called as `settle || …`, where bash ignores set -e: every step says when it fails.
  wait_until 60 "nodes to be Ready" lab_kubectl wait --for=condition=Ready nodes --all --timeout=1s || return 1
  local ns
  for ns in $(lab_kubectl get namespaces -l "$SCENARIO_LABEL" -o jsonpath='{.items[*].metadata.name}') kube-system; do
    wait_until 60 "the default ServiceAccount in $ns" lab_kubectl get serviceaccount default -n "$ns" || return 1
    for workload in $(lab_kubectl get deployments,statefulsets,daemonsets -n "$ns" -o name); do
      lab_kubectl rollout status -n "$ns" "$workload" --timeout=120s >/dev/null || { dump_state; return 1; }
    done
  done
  wait_until 120 "every pod to be Running and Ready" pods_settled || { dump_state; return 1; }
  wait_until 60 "the disruption controller to observe every budget" budgets_observed || { dump_state; return 1; }
}

log "seeding $scenario"
reset
while read -r line; do
  line=${line%%#*}
  [[ -n "${line// /}" ]] || continue
  for dir in $line; do
    # Namespaces first: a scenario's objects may live in a namespace it creates.
    lab_kubectl apply -k "$LAB_SCRIPTS/scenarios/$dir" >/dev/null
  done
  settle || die "scenario $scenario did not settle"
done <"$steps_file"
log "seeded $scenario in $((SECONDS - started))s"
