#!/usr/bin/env bash
# Starts the lab on 127.0.0.1 with free ports: etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler and kwok (simulated nodes and kubelets), with its own PKI and admin kubeconfig in
# $LAB_DIR. Idempotent: when the lab is already up and healthy it does nothing.
source "$(dirname "$0")/lib.sh"
source "$LAB_SCRIPTS/components.sh"

LAB_POD_READY_DELAY_MS=${LAB_POD_READY_DELAY_MS:-1000}
LAB_KWOK_POD_WORKERS=${LAB_KWOK_POD_WORKERS:-32}
LAB_KWOK_LEASE_WORKERS=${LAB_KWOK_LEASE_WORKERS:-256}
# Empty: the API server's own default (60s).
LAB_APISERVER_REQUEST_TIMEOUT=${LAB_APISERVER_REQUEST_TIMEOUT:-}
# Empty: the API server's own default (5m). A paged list's continue token dies with the compaction after
# it, so a `kubectl get` of a big lab that pages for longer fails ("continue parameter is too old").
LAB_APISERVER_ETCD_COMPACTION_INTERVAL=${LAB_APISERVER_ETCD_COMPACTION_INTERVAL:-}

# One `up` at a time per lab: CI starts its labs while it builds, and the e2e global setup's own `up`
# then waits here and finds the lab up (without the lock it would take the half-started lab for stale).
mkdir -p "$(dirname "$LAB_DIR")"
exec 9>"$LAB_DIR.lock"
flock 9

healthy() {
  for c in "${COMPONENTS[@]}"; do pid_alive "$LAB_DIR/pids/$c" || return 1; done
  # A lab whose apiserver does not write the audit log the tests read (one that logs the runs' Leases)
  # is restarted.
  grep -q coordination.k8s.io "$LAB_DIR/audit-policy.yaml" 2>/dev/null || return 1
  # One whose scheduler serves a certificate of its own making (not the lab CA's) is restarted.
  # shellcheck source=/dev/null
  source "$LAB_DIR/ports.env"
  curl -fs --cacert "$LAB_DIR/pki/ca.crt" "https://127.0.0.1:$SCHED_PORT/healthz" >/dev/null || return 1
  lab_kubectl get --raw /readyz >/dev/null 2>&1
}

if [[ -d "$LAB_DIR" ]] && healthy; then
  log "already up ($LAB_DIR)"
  exit 0
fi
if [[ -d "$LAB_DIR" ]]; then
  log "found a stale lab in $LAB_DIR: stopping it first"
  "$LAB_SCRIPTS/down.sh"
fi
[[ -f "$LAB_BIN/.complete" ]] || "$LAB_SCRIPTS/build.sh"
command -v openssl >/dev/null || die "openssl is required for the lab's PKI"

started=$SECONDS
mkdir -p "$LAB_DIR"/{pki,logs,pids,etcd,kwok-home}
pki="$LAB_DIR/pki"

on_failure() {
  local rc=$?
  log "start failed (exit $rc); last lines of the component logs:"
  for f in "$LAB_DIR"/logs/*.log; do
    [[ -f "$f" ]] || continue
    printf '\n==> %s <==\n' "$f" >&2
    tail -n 25 "$f" >&2
  done
  exit "$rc"
}
trap on_failure ERR

# PKI: a CA, one certificate for serving and for the admin client (O=system:masters), SA keys.
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=kubectl-maint-lab-ca" \
  -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -sha256 -subj "/O=system:masters/CN=lab-admin" \
  -keyout "$pki/admin.key" -out "$pki/admin.csr" 2>/dev/null
cat >"$pki/admin.ext" <<EXT
basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth,clientAuth
subjectAltName=DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:10.96.0.1
EXT
openssl x509 -req -in "$pki/admin.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -sha256 \
  -days 3650 -extfile "$pki/admin.ext" -out "$pki/admin.crt" 2>/dev/null
openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null

{ read -r ETCD_PORT; read -r ETCD_PEER_PORT; read -r API_PORT; read -r KCM_PORT; read -r SCHED_PORT; } < <(free_ports 5)
printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nAPI_PORT=%s\nKCM_PORT=%s\nSCHED_PORT=%s\n' \
  "$ETCD_PORT" "$ETCD_PEER_PORT" "$API_PORT" "$KCM_PORT" "$SCHED_PORT" >"$LAB_DIR/ports.env"
# What a component started again (start-component, the fault tests) is given again.
printf 'API_REQUEST_TIMEOUT=%q\nAPI_ETCD_COMPACTION_INTERVAL=%q\n' "$LAB_APISERVER_REQUEST_TIMEOUT" \
  "$LAB_APISERVER_ETCD_COMPACTION_INTERVAL" >"$LAB_DIR/settings.env"

# The admin kubeconfig, written as YAML (no kubectl needed for it).
b64() { base64 -w0 <"$1"; }
cat >"$KUBECONFIG_LAB" <<KCFG
apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority-data: $(b64 "$pki/ca.crt")
users:
- name: lab-admin
  user:
    client-certificate-data: $(b64 "$pki/admin.crt")
    client-key-data: $(b64 "$pki/admin.key")
contexts:
- name: lab
  context: {cluster: lab, user: lab-admin}
current-context: lab
KCFG
chmod 600 "$KUBECONFIG_LAB"

write_audit_policy
cat >"$LAB_DIR/scheduler.yaml" <<SCHED
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {kubeconfig: "$KUBECONFIG_LAB", qps: 100, burst: 200}
leaderElection: {leaderElect: false}
SCHED
# KWOK: its configuration, the upstream node stages of its version and the lab's own pod stages.
# podPlayStageParallelism: KWOK's default is 4 workers, each one patch at a time, and a lab grown to tens
# of thousands of pods (the live-read bench) then waits hours for them to run. nodeLeaseParallelism: each
# node's Lease is renewed every 10 s (a quarter of --node-lease-duration-seconds), one update per worker at
# a time; with KWOK's 4, a lab grown to 1,500 nodes renews a few a second where it needs 150, and the node
# lifecycle controller finds hundreds of them NotReady (and taints them NoExecute). A KwokConfiguration given
# in the file leaves every option it omits at zero, not at KWOK's default (a zero parallelism stops KWOK):
# the others are KWOK's defaults (sigs.k8s.io/kwok pkg/apis/config/v1alpha1/zz_generated.defaults.go).
{
  cat <<KWOKCONF
apiVersion: config.kwok.x-k8s.io/v1alpha1
kind: KwokConfiguration
options:
  podPlayStageParallelism: $LAB_KWOK_POD_WORKERS
  nodePlayStageParallelism: 4
  nodeLeaseParallelism: $LAB_KWOK_LEASE_WORKERS
  podsOnNodeSyncParallelism: 1
  enablePodsOnNodeSyncListPager: true
  enablePodsOnNodeSyncStreamWatch: false
  enableDebuggingHandlers: true
  enableContentionProfiling: false
  enableProfilingHandler: true
---
KWOKCONF
  cat "$LAB_BIN/stages/node-initialize.yaml"
  printf -- '\n---\n'
  cat "$LAB_BIN/stages/node-heartbeat-with-lease.yaml"
  printf -- '\n---\n'
  sed "s/\${LAB_POD_READY_DELAY_MS}/$LAB_POD_READY_DELAY_MS/g" "$LAB_SCRIPTS/kwok/pod-stages.yaml"
} >"$LAB_DIR/kwok-stages.yaml"

# etcd and the apiserver one after the other; the rest together, then each waited for.
for c in etcd kube-apiserver; do
  start_component "$c"
  wait_component "$c"
done
for c in kube-controller-manager kube-scheduler kwok; do start_component "$c"; done
for c in kube-controller-manager kube-scheduler; do wait_component "$c"; done
# ServiceAccount admission rejects pods until the namespace's default ServiceAccount exists.
wait_until 60 "the default ServiceAccount" lab_kubectl get serviceaccount default -n default
# The namespace of the runs' state, as whoever grants a run its roles makes it (kubectl maint rbac run).
lab_kubectl create namespace kubectl-maint >/dev/null
wait_component kwok

trap - ERR
log "up in $((SECONDS - started))s: API https://127.0.0.1:$API_PORT, lab directory $LAB_DIR"
