#!/usr/bin/env bash
# Builds krew (and its manifest validator) from the Go module sigs.k8s.io/krew into a version-keyed
# cache outside the repo, then prints that directory on stdout. A warm cache is a no-op.
#
# krew lives in its own wrapper module (scripts/lab/go/krew): krew v0.4.3 requires
# k8s.io/client-go v11.0.0+incompatible, which Go's version selection would rank above the
# Kubernetes wrapper's v0.x modules if both shared one go.mod.
source "$(dirname "$0")/lib.sh"

KREW_BIN="$LAB_CACHE/bin/krew-$KREW_VERSION"
if [[ -f "$KREW_BIN/.complete" ]]; then
  printf '%s\n' "$KREW_BIN"
  exit 0
fi
command -v go >/dev/null || die "go is not installed (krew is built with Go >= 1.26)"

committed=$(sed -n 's/^\tsigs.k8s.io\/krew \(v[^ ]*\).*/\1/p; s/^require sigs.k8s.io\/krew \(v[^ ]*\).*/\1/p' \
  "$LAB_SCRIPTS/go/krew/go.mod" | head -1)
[[ "$committed" == "$KREW_VERSION" ]] ||
  die "scripts/lab/go/krew requires krew $committed but versions.env says $KREW_VERSION: update the wrapper module"

started=$SECONDS
mkdir -p "$KREW_BIN"
log "building krew $KREW_VERSION"
# gitTag makes `kubectl krew version` report the real version; KREW_NO_UPGRADE_CHECK=1 still has to
# be set at run time to keep krew from asking GitHub for a newer release.
(cd "$LAB_SCRIPTS/go/krew" && CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X sigs.k8s.io/krew/internal/version.gitTag=$KREW_VERSION" \
  -o "$KREW_BIN/" sigs.k8s.io/krew/cmd/krew sigs.k8s.io/krew/cmd/validate-krew-manifest)
smoke_root=$(mktemp -d)
KREW_ROOT=$smoke_root KREW_NO_UPGRADE_CHECK=1 "$KREW_BIN/krew" version >/dev/null 2>&1 ||
  die "the krew just built does not run: try KREW_ROOT=\$(mktemp -d) $KREW_BIN/krew version"
rm -rf "$smoke_root"
touch "$KREW_BIN/.complete"
log "built krew in $((SECONDS - started))s into $KREW_BIN"
printf '%s\n' "$KREW_BIN"
