#!/usr/bin/env bash
# Starts the lab on 127.0.0.1 with free ports: etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler and kwok (simulated nodes and kubelets), with its own PKI and admin kubeconfig in
# $LAB_DIR. Idempotent: when the lab is already up and healthy it does nothing.
source "$(dirname "$0")/lib.sh"

COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)
LAB_POD_READY_DELAY_MS=${LAB_POD_READY_DELAY_MS:-1000}

healthy() {
  for c in "${COMPONENTS[@]}"; do pid_alive "$LAB_DIR/pids/$c" || return 1; done
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

ETCD_PORT=$(free_port); ETCD_PEER_PORT=$(free_port); API_PORT=$(free_port)
KCM_PORT=$(free_port); SCHED_PORT=$(free_port)
printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nAPI_PORT=%s\nKCM_PORT=%s\nSCHED_PORT=%s\n' \
  "$ETCD_PORT" "$ETCD_PEER_PORT" "$API_PORT" "$KCM_PORT" "$SCHED_PORT" >"$LAB_DIR/ports.env"

# start NAME COMMAND...: runs a component in the background, its log and pid in the lab directory.
start() {
  local name=$1; shift
  setsid "$@" >"$LAB_DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$LAB_DIR/pids/$name"
}

start etcd "$LAB_BIN/etcd" --name=lab --data-dir="$LAB_DIR/etcd" \
  --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster="lab=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync=true --log-level=warn \
  --auto-compaction-retention=1
WAIT_PID_FILE="$LAB_DIR/pids/etcd" wait_until 30 "etcd" curl -fs "http://127.0.0.1:$ETCD_PORT/health"

# --endpoint-reconciler-type=none: since 1.37 the endpoint reconciler refuses a loopback advertise
# address ("may not be in the loopback range"), and a host without a default route needs one.
start kube-apiserver "$LAB_BIN/kube-apiserver" \
  --etcd-servers="http://127.0.0.1:$ETCD_PORT" --etcd-prefix=/registry \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$API_PORT" \
  --cert-dir="$pki" --tls-cert-file="$pki/admin.crt" --tls-private-key-file="$pki/admin.key" \
  --client-ca-file="$pki/ca.crt" --authorization-mode=Node,RBAC \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
  --service-cluster-ip-range=10.96.0.0/16 --allow-privileged=true --v=1 \
  --endpoint-reconciler-type=none

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
WAIT_PID_FILE="$LAB_DIR/pids/kube-apiserver" wait_until 90 "kube-apiserver /readyz" lab_kubectl get --raw /readyz

start kube-controller-manager "$LAB_BIN/kube-controller-manager" \
  --kubeconfig="$KUBECONFIG_LAB" --authentication-kubeconfig="$KUBECONFIG_LAB" \
  --authorization-kubeconfig="$KUBECONFIG_LAB" --bind-address=127.0.0.1 --secure-port="$KCM_PORT" \
  --controllers='*' --leader-elect=false --root-ca-file="$pki/ca.crt" \
  --service-account-private-key-file="$pki/sa.key" --node-monitor-period=2s \
  --node-monitor-grace-period=50s --kube-api-qps=100 --kube-api-burst=200 --v=1

cat >"$LAB_DIR/scheduler.yaml" <<SCHED
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {kubeconfig: "$KUBECONFIG_LAB", qps: 100, burst: 200}
leaderElection: {leaderElect: false}
SCHED
start kube-scheduler "$LAB_BIN/kube-scheduler" --config="$LAB_DIR/scheduler.yaml" \
  --bind-address=127.0.0.1 --secure-port="$SCHED_PORT" \
  --authentication-kubeconfig="$KUBECONFIG_LAB" --authorization-kubeconfig="$KUBECONFIG_LAB" --v=1

# KWOK: the upstream node stages of its version plus the lab's own pod stages.
{
  cat "$LAB_BIN/stages/node-initialize.yaml"
  printf -- '\n---\n'
  cat "$LAB_BIN/stages/node-heartbeat-with-lease.yaml"
  printf -- '\n---\n'
  sed "s/\${LAB_POD_READY_DELAY_MS}/$LAB_POD_READY_DELAY_MS/g" "$LAB_SCRIPTS/kwok/pod-stages.yaml"
} >"$LAB_DIR/kwok-stages.yaml"
KWOK_WORKDIR="$LAB_DIR/kwok-home" start kwok "$LAB_BIN/kwok" \
  --kubeconfig="$KUBECONFIG_LAB" --config="$LAB_DIR/kwok-stages.yaml" \
  --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
  --cidr=10.244.0.0/16 --node-ip=10.1.0.1 --node-lease-duration-seconds=40

# KCM and the scheduler run without leader election: "leading" means they serve /healthz.
WAIT_PID_FILE="$LAB_DIR/pids/kube-controller-manager" wait_until 60 "kube-controller-manager /healthz" curl -fsk "https://127.0.0.1:$KCM_PORT/healthz"
WAIT_PID_FILE="$LAB_DIR/pids/kube-scheduler" wait_until 60 "kube-scheduler /healthz" curl -fsk "https://127.0.0.1:$SCHED_PORT/healthz"
# ServiceAccount admission rejects pods until the namespace's default ServiceAccount exists.
wait_until 60 "the default ServiceAccount" lab_kubectl get serviceaccount default -n default
pid_alive "$LAB_DIR/pids/kwok" || { log "kwok exited"; false; }

trap - ERR
log "up in $((SECONDS - started))s: API https://127.0.0.1:$API_PORT, lab directory $LAB_DIR"
