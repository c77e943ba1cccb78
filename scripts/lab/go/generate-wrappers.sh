#!/usr/bin/env bash
# Regenerates the wrapper Go modules that build the lab's binaries from the Go module proxy.
#
# k8s.io/kubernetes cannot be `go install`ed: its go.mod requires the staging modules at v0.0.0 and
# replaces them with ./staging paths, which Go ignores in a dependency. The wrapper module replaces
# every staging module with its published tag (v1.X.Y -> v0.X.Y). The list of staging modules changes
# between releases, so it is read from the release's own go.mod, never hand-copied.
#
# Usage: generate-wrappers.sh KUBE_VERSION ETCD_VERSION KWOK_VERSION
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kube=${1:?kubernetes version, e.g. v1.37.2}
etcd=${2:?etcd version, e.g. v3.6.16}
kwok=${3:?kwok version, e.g. v0.8.0}
staging="v0.${kube#v1.}"

gen_kubernetes() {
  local dir="$here/kubernetes"
  rm -f "$dir/go.mod" "$dir/go.sum"
  (cd "$dir" && go mod init lab.local/kubernetes >/dev/null 2>&1 && go mod edit -go=1.26.0)
  local upstream
  upstream=$(cd "$dir" && go mod download -json "k8s.io/kubernetes@$kube" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  local mods
  mods=$( { grep -oE '^\s*k8s\.io/[a-z0-9-]+ => \./staging' "$upstream" | awk '{print $1}';
            grep -E '^\s*k8s\.io/[a-z0-9-]+ v0\.0\.0(\s|$)' "$upstream" | awk '{print $1}'; } | sort -u)
  local args=()
  for m in $mods; do args+=("-replace=$m=$m@$staging"); done
  (cd "$dir" && go mod edit "${args[@]}" -require="k8s.io/kubernetes@$kube" \
      -tool=k8s.io/kubernetes/cmd/kube-apiserver \
      -tool=k8s.io/kubernetes/cmd/kube-controller-manager \
      -tool=k8s.io/kubernetes/cmd/kube-scheduler \
      -tool=k8s.io/kubernetes/cmd/kubectl && go mod tidy)
  echo "kubernetes $kube: $(echo "$mods" | wc -l) staging modules replaced with $staging"
}

gen_simple() { # dir module version tool...
  local dir="$here/$1" module=$2 version=$3; shift 3
  rm -f "$dir/go.mod" "$dir/go.sum"
  local tools=()
  for t in "$@"; do tools+=("-tool=$t"); done
  (cd "$dir" && go mod init "lab.local/$1" >/dev/null 2>&1 && go mod edit -go=1.26.0 \
      -require="$module@$version" "${tools[@]}" && go mod tidy)
  echo "$1 $version"
}

gen_kubernetes
gen_simple etcd go.etcd.io/etcd/server/v3 "$etcd" go.etcd.io/etcd/server/v3
gen_simple kwok sigs.k8s.io/kwok "$kwok" sigs.k8s.io/kwok/cmd/kwok
