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

WORKLOAD_KINDS=deployments,statefulsets,replicasets,daemonsets,jobs,replicationcontrollers

reset() {
  # Force-delete so that nothing lingers for a grace period: this is the lab's own teardown, not a drain.
  # Order matters: the workloads go first (so no controller recreates what is force-deleted next), then
  # every pod, then the namespaces (empty of pods, so the namespace controller finishes at its first
  # pass instead of waiting out the pods' grace periods), then the nodes and their leases.
  local namespaces ns
  namespaces=$(lab_kubectl get namespaces -l "$SCENARIO_LABEL" -o name)
  lab_kubectl delete daemonsets -n kube-system -l "$SCENARIO_LABEL" --ignore-not-found --wait=false >/dev/null
  for ns in $namespaces; do
    lab_kubectl delete "$WORKLOAD_KINDS" -n "${ns#namespace/}" --all --wait=false >/dev/null
  done
  # Applying a DaemonSet of the same name while the old one is still being deleted fails with
  # "object has been deleted"; its old pods must not be adopted by the new one either.
  wait_until 60 "scenario DaemonSets to be deleted" gone daemonsets -n kube-system -l "$SCENARIO_LABEL"
  for ns in $namespaces; do
    wait_until 60 "the workloads of ${ns#namespace/} to be deleted" gone "$WORKLOAD_KINDS" -n "${ns#namespace/}"
  done
  wait_until 60 "every pod to be deleted" force_delete_pods
  # shellcheck disable=SC2086
  [[ -z "$namespaces" ]] || lab_kubectl delete $namespaces --wait=false >/dev/null
  # Collections, in one request each (a benchmark may leave hundreds of nodes).
  lab_kubectl delete --raw /api/v1/nodes >/dev/null
  wait_until 60 "nodes to be deleted" gone nodes
  # A node's Lease outlives it until the garbage collector notices the owner is gone. A node created
  # again under the same name before that would have KWOK renew the old Lease, which the collector
  # then deletes: for a while KWOK thinks it does not hold the node and ignores its pods' updates.
  lab_kubectl delete --raw /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases >/dev/null
  wait_until 60 "node leases to be deleted" gone leases -n kube-node-lease
  # shellcheck disable=SC2086
  [[ -z "$namespaces" ]] || wait_until 120 "scenario namespaces to be deleted" gone $namespaces
}

# Succeeds once no pod is left; force-deletes the ones it finds (controllers may still be creating some).
# One DELETE of the collection per namespace, with a zero grace period: `kubectl delete pods --all`
# deletes, then waits for, one pod at a time, which takes minutes when a benchmark left thousands.
force_delete_pods() {
  gone pods -A && return 0
  local ns name
  # A pod held by a finalizer (a fault test's) would never go: drop its finalizers first.
  while read -r ns name; do
    [[ -n "$name" ]] || continue
    lab_kubectl patch pod -n "$ns" "$name" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
  done < <(lab_kubectl get pods -A -o jsonpath='{range .items[?(@.metadata.finalizers)]}{.metadata.namespace} {.metadata.name}{"\n"}{end}' 2>/dev/null)
  for ns in $(lab_kubectl get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace}{"\n"}{end}' | sort -u); do
    lab_kubectl delete --raw "/api/v1/namespaces/$ns/pods?gracePeriodSeconds=0" >/dev/null 2>&1 || true
  done
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

# Succeeds when the API answers and lists none of the objects. Not `get | grep -q .`: under
# pipefail, grep quitting at the first line can kill kubectl with SIGPIPE, and the pipeline's
# failure, negated, would read as "gone" while objects remain.
gone() {
  local names
  names=$(lab_kubectl get "$@" --ignore-not-found -o name 2>/dev/null) || return 1
  [[ -z "$names" ]]
}

budgets_observed() {
  # Every budget's status.observedGeneration has caught up with its generation.
  lab_kubectl get pdb -A -o jsonpath='{range .items[*]}{.metadata.generation}={.status.observedGeneration}{"\n"}{end}' |
    awk -F= '$1 != $2 { bad = 1 } END { exit bad }'
}

# KWOK 0.8 can lose a pod's next stage. When a node becomes managed (a new node, a new Lease) it
# re-lists that node's pods and replays the stage it matches on that copy; for a pod it already
# moved to Running, the stale copy still matches pod-running, and queueing that replay cancels the
# pod-ready stage queued from the watch. The replay changes nothing, so no event follows and the pod
# stays unready for ever (seen in CI: DaemonSet pods on the control-plane node that joins in step 2).
# Touching such a pod gives KWOK the event it lost. Only pods older than NUDGE_AFTER seconds,
# without a ready-delay of their own, at most once in NUDGE_AFTER seconds each; every nudge is
# logged, so a run shows when KWOK needed one.
NUDGE_AFTER=15
declare -A nudged_at=()
nudge_stuck_pods() {
  local now ns name phase ready created deleting delay
  now=$(date +%s)
  while read -r ns name phase ready created deleting delay; do
    [[ "$deleting" == "<none>" && "$delay" == "<none>" ]] || continue
    [[ "$phase" == "Pending" || ("$phase" == "Running" && "$ready" != "True") ]] || continue
    ((now - $(date -d "$created" +%s) >= NUDGE_AFTER)) || continue
    ((now - ${nudged_at[$ns/$name]:-0} >= NUDGE_AFTER)) || continue
    nudged_at[$ns/$name]=$now
    # fd 4 is the script's stderr: wait_until silences the commands it polls.
    log "nudging pod $ns/$name ($phase, Ready=$ready): KWOK has not moved it on for ${NUDGE_AFTER}s" 2>&4
    lab_kubectl annotate pod -n "$ns" "$name" --overwrite "lab.kubectl-maint.io/nudged=$now" >/dev/null 2>&1 || true
  done < <(lab_kubectl get pods -A --field-selector=spec.nodeName!= --no-headers -o \
    'custom-columns=NS:.metadata.namespace,NAME:.metadata.name,PHASE:.status.phase,READY:.status.conditions[?(@.type=="Ready")].status,CREATED:.metadata.creationTimestamp,DELETING:.metadata.deletionTimestamp,DELAY:.metadata.annotations.lab\.kubectl-maint\.io/ready-delay' 2>/dev/null)
}

pods_settled() {
  # No pod is Pending, terminating or unready (Job pods that finished are fine).
  lab_kubectl get pods -A -o jsonpath='{range .items[*]}{.status.phase} {.metadata.deletionTimestamp} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' |
    awk '$1 == "Succeeded" { next } $1 != "Running" || NF != 2 || $2 != "True" { bad = 1 } END { exit bad }'
}

rolled_out_or_nudge() {
  lab_kubectl rollout status -n "$1" "$2" --timeout=5s && return 0
  nudge_stuck_pods
  return 1
}

pods_settled_or_nudge() {
  pods_settled && return 0
  nudge_stuck_pods
  return 1
}

settle() {
  # Called as `settle || …`, where bash ignores set -e: every step says when it fails.
  wait_until 60 "nodes to be Ready" lab_kubectl wait --for=condition=Ready nodes --all --timeout=1s || return 1
  local ns
  for ns in $(lab_kubectl get namespaces -l "$SCENARIO_LABEL" -o jsonpath='{.items[*].metadata.name}') kube-system; do
    wait_until 60 "the default ServiceAccount in $ns" lab_kubectl get serviceaccount default -n "$ns" || return 1
    for workload in $(lab_kubectl get deployments,statefulsets,daemonsets -n "$ns" -o name); do
      wait_until 120 "$ns/$workload to roll out" rolled_out_or_nudge "$ns" "$workload" || { dump_state; return 1; }
    done
  done
  wait_until 120 "every pod to be Running and Ready" pods_settled_or_nudge || { dump_state; return 1; }
  wait_until 60 "the disruption controller to observe every budget" budgets_observed || { dump_state; return 1; }
}

exec 4>&2
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
