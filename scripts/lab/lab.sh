#!/usr/bin/env bash
# npm run lab -- <verb>: the project's local control plane (see README "The lab").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
verb=${1:-help}
shift || true
case "$verb" in
  build | up | down | status | env | seed | snapshot | capture-examples) exec "$here/$verb.sh" "$@" ;;
  stop-component | start-component) exec "$here/component.sh" "${verb%-component}" "$@" ;;
  help | -h | --help)
    cat <<'USAGE'
usage: npm run lab -- <verb>
  build            build etcd, Kubernetes (apiserver, controller-manager, scheduler, kubectl) and kwok
                   from Go modules into a version-keyed cache (no-op when cached)
  up               start the lab on 127.0.0.1 (builds first if needed); idempotent
  down             stop the lab's processes and remove its directory
  status           show each component; exit 0 when the lab is up
  env              print `export KUBECONFIG=… PATH=…` lines: eval "$(npm run --silent lab -- env)"
  snapshot         print the lab cluster as a snapshot for plan --snapshot (the README's kubectl get)
  capture-examples regenerate examples/*.json from the scenarios, in a lab of its own
  seed SCENARIO    reset the lab's workloads and nodes, apply a scenario and wait until it settles
                   (scenarios: scripts/lab/scenarios/*.yaml)
  stop-component NAME   stop one component of the running lab (etcd, kube-apiserver,
                   kube-controller-manager, kube-scheduler, kwok), as a fault would
  start-component NAME  start it again with the lab's ports and configuration; waits until it serves
environment: LAB_DIR (default /tmp/kubectl-maint-lab), LAB_CACHE (default ~/.cache/kubectl-maint-lab),
             LAB_KUBE_VERSION (default from scripts/lab/versions.env), LAB_POD_READY_DELAY_MS (default 1000),
             LAB_KWOK_POD_WORKERS (KWOK's pod stage workers, default 32), LAB_KWOK_LEASE_WORKERS (KWOK's
             node lease workers, default 256), LAB_APISERVER_REQUEST_TIMEOUT (kube-apiserver's
             --request-timeout, a Go duration such as 5m; default its own, 60s),
             LAB_APISERVER_ETCD_COMPACTION_INTERVAL (its --etcd-compaction-interval, such as 2h; default
             5m); all read at `up`; LAB_APISERVER_RUNTIME_CONFIG (its --runtime-config, such as
             resource.k8s.io/v1=false) and LAB_APISERVER_FEATURE_GATES (its --feature-gates, such as
             WatchList=false), read by `up` and `start-component kube-apiserver` alike
USAGE
    ;;
  *) echo "lab: unknown verb '$verb' (try: npm run lab -- help)" >&2; exit 2 ;;
esac
