#!/usr/bin/env bash
# Stops only the processes the lab started (its pid files), newest first, then removes the lab directory.
source "$(dirname "$0")/lib.sh"

[[ -d "$LAB_DIR" ]] || { log "not running"; exit 0; }
for c in kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
  f="$LAB_DIR/pids/$c"
  pid_alive "$f" || continue
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
done
rm -rf "$LAB_DIR"
log "down"
