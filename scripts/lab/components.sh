# How each of the lab's components is started, stopped and known to be ready. Sourced by up.sh (which
# first writes the PKI, ports.env, the kubeconfig and the config files these commands read), down.sh and
# component.sh (stop or start one component of a running lab, for the fault tests). Sourced, not run.
# shellcheck shell=bash

# In start order; down and status go through them in reverse or in this order.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

is_component() {
  local c
  for c in "${COMPONENTS[@]}"; do [[ "$c" == "$1" ]] && return 0; done
  return 1
}

# The audit policy of the lab's kube-apiserver: only the writes the drain and run tests judge (evictions,
# pod deletes, node patches, the runs' Leases (in kubectl-maint, or kube-system), and every write of the ServiceAccounts of
# namespace maint-rbac, the least-privilege test's users) and the reads whose count they judge (lists
# and watches: a run lists each kind once; GETs of budgets: a run's wait for them stays bounded; GETs of
# nodes: a run reads a node only where its watches cannot answer), and every request of the user
# kubectl-maint-bench (the fleet run benchmark's run, scripts/bench/fleet-run.ts, counts its own), at
# Metadata level (who, what, answer; no bodies), so the log stays small.
write_audit_policy() {
  cat >"$LAB_DIR/audit-policy.yaml" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    verbs: [create]
    resources: [{group: '', resources: [pods/eviction]}]
  - level: Metadata
    verbs: [delete, deletecollection]
    resources: [{group: '', resources: [pods]}]
  - level: Metadata
    verbs: [patch, update]
    resources: [{group: '', resources: [nodes]}]
  - level: Metadata
    verbs: [create, patch, update, delete]
    namespaces: [kubectl-maint, kube-system]
    resources: [{group: coordination.k8s.io, resources: [leases]}]
  - level: Metadata
    verbs: [list, watch]
  - level: Metadata
    verbs: [get]
    resources: [{group: policy, resources: [poddisruptionbudgets]}, {group: '', resources: [nodes]}]
  - level: Metadata
    userGroups: [system:serviceaccounts:maint-rbac]
    verbs: [create, update, patch, delete, deletecollection]
  - level: Metadata
    users: [kubectl-maint-bench]
  - level: None
POLICY
}

# launch NAME COMMAND...: runs a component in the background, its log (appended: a restarted component
# keeps its history) and pid in the lab directory.
launch() {
  local name=$1; shift
  # 9>&-: not the lock of `up` (up.sh), which a component outliving it would hold for ever.
  setsid "$@" >>"$LAB_DIR/logs/$name.log" 2>&1 </dev/null 9>&- &
  echo $! >"$LAB_DIR/pids/$name"
}

# start_component NAME: starts it with the lab's ports, PKI and config files (does not wait).
start_component() {
  local pki="$LAB_DIR/pki"
  # shellcheck source=/dev/null
  source "$LAB_DIR/ports.env"
  local API_REQUEST_TIMEOUT= API_ETCD_COMPACTION_INTERVAL=
  # shellcheck source=/dev/null
  [[ -f "$LAB_DIR/settings.env" ]] && source "$LAB_DIR/settings.env"
  # The API versions served beyond the defaults, for this start only (a test that turns one off starts
  # the API server again without it).
  local API_RUNTIME_CONFIG=${LAB_APISERVER_RUNTIME_CONFIG:-}
  # Its feature gates, the same way (a test that turns one off, as an older minor has it by default).
  local API_FEATURE_GATES=${LAB_APISERVER_FEATURE_GATES:-}
  case "$1" in
    etcd)
      launch etcd "$LAB_BIN/etcd" --name=lab --data-dir="$LAB_DIR/etcd" \
        --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
        --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
        --initial-cluster="lab=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync=true --log-level=warn \
        --auto-compaction-retention=1
      ;;
    kube-apiserver)
      # --endpoint-reconciler-type=none: since 1.37 the endpoint reconciler refuses a loopback advertise
      # address ("may not be in the loopback range"), and a host without a default route needs one.
      launch kube-apiserver "$LAB_BIN/kube-apiserver" \
        --etcd-servers="http://127.0.0.1:$ETCD_PORT" --etcd-prefix=/registry \
        --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$API_PORT" \
        --cert-dir="$pki" --tls-cert-file="$pki/admin.crt" --tls-private-key-file="$pki/admin.key" \
        --client-ca-file="$pki/ca.crt" --authorization-mode=Node,RBAC \
        --service-account-issuer=https://kubernetes.default.svc.cluster.local \
        --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
        --service-cluster-ip-range=10.96.0.0/16 --allow-privileged=true --v=1 \
        --endpoint-reconciler-type=none \
        --audit-policy-file="$LAB_DIR/audit-policy.yaml" --audit-log-path="$LAB_DIR/audit.log" \
        --audit-log-format=json --audit-log-mode=blocking \
        ${API_REQUEST_TIMEOUT:+"--request-timeout=$API_REQUEST_TIMEOUT"} \
        ${API_ETCD_COMPACTION_INTERVAL:+"--etcd-compaction-interval=$API_ETCD_COMPACTION_INTERVAL"} \
        ${API_RUNTIME_CONFIG:+"--runtime-config=$API_RUNTIME_CONFIG"} \
        ${API_FEATURE_GATES:+"--feature-gates=$API_FEATURE_GATES"}
      ;;
    kube-controller-manager)
      launch kube-controller-manager "$LAB_BIN/kube-controller-manager" \
        --kubeconfig="$KUBECONFIG_LAB" --authentication-kubeconfig="$KUBECONFIG_LAB" \
        --authorization-kubeconfig="$KUBECONFIG_LAB" --bind-address=127.0.0.1 --secure-port="$KCM_PORT" \
        --controllers='*' --leader-elect=false --root-ca-file="$pki/ca.crt" \
        --service-account-private-key-file="$pki/sa.key" --node-monitor-period=2s \
        --node-monitor-grace-period=50s --kube-api-qps=100 --kube-api-burst=200 --v=1 \
        --tls-cert-file="$pki/admin.crt" --tls-private-key-file="$pki/admin.key"
      ;;
    kube-scheduler)
      launch kube-scheduler "$LAB_BIN/kube-scheduler" --config="$LAB_DIR/scheduler.yaml" \
        --bind-address=127.0.0.1 --secure-port="$SCHED_PORT" \
        --authentication-kubeconfig="$KUBECONFIG_LAB" --authorization-kubeconfig="$KUBECONFIG_LAB" --v=1 \
        --tls-cert-file="$pki/admin.crt" --tls-private-key-file="$pki/admin.key"
      ;;
    kwok)
      KWOK_WORKDIR="$LAB_DIR/kwok-home" launch kwok "$LAB_BIN/kwok" \
        --kubeconfig="$KUBECONFIG_LAB" --config="$LAB_DIR/kwok-stages.yaml" \
        --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
        --cidr=10.244.0.0/16 --node-ip=10.1.0.1 --node-lease-duration-seconds=40
      ;;
    *) die "unknown component '$1' (one of: ${COMPONENTS[*]})" ;;
  esac
}

# wait_component NAME: waits until it serves (or fails at once when it exits meanwhile).
wait_component() {
  # shellcheck source=/dev/null
  source "$LAB_DIR/ports.env"
  local pid_file="$LAB_DIR/pids/$1"
  case "$1" in
    etcd) WAIT_PID_FILE=$pid_file wait_until 30 "etcd" curl -fs "http://127.0.0.1:$ETCD_PORT/health" ;;
    # With API versions turned off, its own informers of them never sync: ready but for that check.
    kube-apiserver)
      local readyz="/readyz${LAB_APISERVER_RUNTIME_CONFIG:+?exclude=informer-sync}"
      WAIT_PID_FILE=$pid_file wait_until 90 "kube-apiserver $readyz" lab_kubectl get --raw "$readyz"
      ;;
    # KCM and the scheduler run without leader election: "leading" means they serve /healthz. They serve the
    # lab CA's certificate (start_component), which is checked as any client of theirs checks it.
    kube-controller-manager)
      WAIT_PID_FILE=$pid_file wait_until 60 "kube-controller-manager /healthz" curl -fs --cacert "$LAB_DIR/pki/ca.crt" "https://127.0.0.1:$KCM_PORT/healthz"
      ;;
    kube-scheduler)
      WAIT_PID_FILE=$pid_file wait_until 60 "kube-scheduler /healthz" curl -fs --cacert "$LAB_DIR/pki/ca.crt" "https://127.0.0.1:$SCHED_PORT/healthz"
      ;;
    kwok) pid_alive "$pid_file" || { log "kwok exited"; return 1; } ;;
    *) die "unknown component '$1' (one of: ${COMPONENTS[*]})" ;;
  esac
}

# stop_component NAME: SIGTERM (the component shuts down as it would on a real node), SIGKILL after 10 s.
stop_component() {
  local f="$LAB_DIR/pids/$1" pid
  pid_alive "$f" || return 0
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
  # Wait until the kernel has reaped it: a restart must not race the old process for its port.
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
}
