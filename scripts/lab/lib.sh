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

# free_ports N: N distinct TCP ports free on 127.0.0.1, one per line. Not the kernel's choice (port 0):
# that comes from the ephemeral range, where two calls can return the same port and any outgoing
# connection can take a port between its choice and the component's bind (kube-controller-manager once
# got etcd's peer port). These are drawn at random below the ephemeral range, each held until all are found.
free_ports() {
  python3 - "$1" <<'PY'
import random, socket, sys
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
held = []
while len(held) < int(sys.argv[1]):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", random.randrange(10000, low)))
        held.append(s)
    except OSError:
        s.close()
print("\n".join(str(s.getsockname()[1]) for s in held))
PY
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
