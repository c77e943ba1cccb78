# Shared settings and helpers of the lab scripts. Sourced, not run.
# shellcheck shell=bash
set -euo pipefail

LAB_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=versions.env
source "$LAB_SCRIPTS/versions.env"
KUBE_VERSION=${LAB_KUBE_VERSION:-$KUBE_VERSION}

LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-maint-lab}
LAB_BIN=${LAB_BIN:-$LAB_CACHE/bin/kube-$KUBE_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION}
LAB_DIR=${LAB_DIR:-${TMPDIR:-/tmp}/kubectl-maint-lab}
KUBECONFIG_LAB="$LAB_DIR/kubeconfig"

log() { printf 'lab: %s\n' "$*" >&2; }
die() { printf 'lab: error: %s\n' "$*" >&2; exit 1; }

lab_kubectl() { "$LAB_BIN/kubectl" --kubeconfig="$KUBECONFIG_LAB" "$@"; }

# A free TCP port on 127.0.0.1, chosen by the kernel.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_until SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.5 s. Gives up at once when the
# component named by $WAIT_PID_FILE (if set) has exited: its log says why.
wait_until() {
  local seconds=$1 what=$2; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [[ -n "${WAIT_PID_FILE:-}" ]] && ! pid_alive "$WAIT_PID_FILE"; then
      log "$(basename "$WAIT_PID_FILE") exited while waiting for $what"
      return 1
    fi
    if ((SECONDS >= deadline)); then
      log "timed out after ${seconds}s waiting for $what"
      return 1
    fi
    sleep 0.5
  done
}

pid_alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }
