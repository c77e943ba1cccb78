#!/usr/bin/env bash
# Builds the lab's binaries from Go modules into a version-keyed cache outside the repo:
# etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl and kwok. A warm cache is
# a no-op. The wrapper modules (go.mod/go.sum) under scripts/lab/go/ are committed; see
# scripts/lab/go/generate-wrappers.sh for why Kubernetes needs one.
source "$(dirname "$0")/lib.sh"

if [[ -f "$LAB_BIN/.complete" ]]; then
  log "binaries cached in $LAB_BIN"
  exit 0
fi
command -v go >/dev/null || die "go is not installed (the lab builds its binaries with Go >= 1.26)"

started=$SECONDS
work="$LAB_CACHE/src/kube-$KUBE_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION"
rm -rf "$work" && mkdir -p "$work" "$LAB_BIN"
cp -r "$LAB_SCRIPTS/go/." "$work/"
committed=$(sed -n 's/^require k8s.io\/kubernetes \(v[^ ]*\).*/\1/p; s/^\tk8s.io\/kubernetes \(v[^ ]*\).*/\1/p' "$work/kubernetes/go.mod" | head -1)
if [[ "$committed" != "$KUBE_VERSION" ]]; then
  log "regenerating the wrapper modules for Kubernetes $KUBE_VERSION (committed: $committed)"
  "$work/generate-wrappers.sh" "$KUBE_VERSION" "$ETCD_VERSION" "$KWOK_VERSION"
fi

export CGO_ENABLED=0
# Stamp both version packages so `kubectl version` and /version report a real semantic version.
minor=${KUBE_VERSION#v1.}; minor=${minor%%.*}
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

log "building Kubernetes $KUBE_VERSION (kube-apiserver, kube-controller-manager, kube-scheduler, kubectl)"
(cd "$work/kubernetes" && go build -trimpath -ldflags "$ldflags" -o "$LAB_BIN/" \
  k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
  k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl)
log "building etcd $ETCD_VERSION"
(cd "$work/etcd" && go build -trimpath -ldflags "-s -w" -o "$LAB_BIN/etcd" go.etcd.io/etcd/server/v3)
log "building kwok $KWOK_VERSION"
(cd "$work/kwok" && go build -trimpath -ldflags "-s -w" -o "$LAB_BIN/kwok" sigs.k8s.io/kwok/cmd/kwok)

# KWOK has no built-in stages: keep the upstream node stages of this version beside the binaries.
kwok_src=$(cd "$work/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
mkdir -p "$LAB_BIN/stages"
cp "$kwok_src/kustomize/stage/node/fast/node-initialize.yaml" \
   "$kwok_src/kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml" "$LAB_BIN/stages/"
chmod -R u+w "$LAB_BIN/stages"

"$LAB_BIN/kubectl" version --client >/dev/null
touch "$LAB_BIN/.complete"
log "built in $((SECONDS - started))s into $LAB_BIN ($(du -sh "$LAB_BIN" | cut -f1))"
