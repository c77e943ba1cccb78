#!/usr/bin/env bash
# stop-component NAME / start-component NAME: stops or starts one component of the running lab, as a
# fault would (the fault tests stop kube-apiserver or kube-controller-manager mid-drain). Start reuses
# the lab's ports, PKI and configuration, and waits until the component serves; both are idempotent.
source "$(dirname "$0")/lib.sh"
source "$LAB_SCRIPTS/components.sh"

action=${1:?usage: component.sh stop|start NAME}
name=${2:?usage: lab stop-component|start-component NAME (one of: ${COMPONENTS[*]})}
is_component "$name" || die "unknown component '$name' (one of: ${COMPONENTS[*]})"
[[ -f "$LAB_DIR/ports.env" ]] || die "the lab is not up ($LAB_DIR)"
case "$action" in
  stop)
    stop_component "$name"
    log "$name stopped"
    ;;
  start)
    if pid_alive "$LAB_DIR/pids/$name"; then
      log "$name already running"
    else
      start_component "$name"
      log "$name started"
    fi
    wait_component "$name"
    ;;
  *) die "unknown action '$action' (stop or start)" ;;
esac
