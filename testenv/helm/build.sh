#!/usr/bin/env bash
# Builds the helm CLI from the Go module proxy, at the version pinned in go.mod next to
# this script, into
#   ${DRUID_BIN_CACHE:-$HOME/.cache/etcd-druid/bin}/helm-<version>/helm
# and prints that file as the LAST line of stdout (everything else goes to stderr).
# A complete cache entry returns at once without touching Go. The directory appears
# atomically (built in a temp dir, then renamed); concurrent runs serialise on flock.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
hver=$(awk '$1=="require" && $2=="helm.sh/helm/v3" {print $3; exit}' "$here/go.mod")
gomin=$(awk '$1=="go" {print $2; exit}' "$here/go.mod")
[ -n "$hver" ] && [ -n "$gomin" ] || { echo "druid: cannot read the helm/Go versions from $here/go.mod" >&2; exit 1; }

root=${DRUID_BIN_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/bin}
key="helm-$hver"
dir="$root/$key"

if [ -x "$dir/helm" ]; then
  echo "$dir/helm"
  exit 0
fi
exec 3>&1 1>&2
fail() { echo "druid: $*" >&2; exit 1; }

command -v go >/dev/null 2>&1 ||
  fail "Go >= ${gomin%.0} is required to build helm $hver but 'go' is not on PATH; install it (https://go.dev/dl or apt-get install golang) and retry"
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly -buildvcs=false"

mkdir -p "$root"
exec 9>"$root/.lock-$key"
if ! flock -n 9; then
  echo "druid: another build of $key is running; waiting for it" >&2
  flock 9
fi
if [ -x "$dir/helm" ]; then
  echo "$dir/helm" >&3
  exit 0
fi
rm -rf "$root/.tmp-$key".* 2>/dev/null || true
tmp=$(mktemp -d "$root/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "druid: building helm $hver from the Go module proxy (Go $(go env GOVERSION)); cached in $dir afterwards" >&2
cd "$here"
go build -p "${DRUID_BUILD_JOBS:-2}" -trimpath \
  -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$hver -X helm.sh/helm/v3/internal/version.gitTreeState=clean" \
  -o "$tmp/helm" helm.sh/helm/v3/cmd/helm \
  || fail "building helm $hver failed (GOPROXY=$(go env GOPROXY)); see the output above"
chmod 755 "$tmp"
mv -T "$tmp" "$dir" 2>/dev/null || { rm -rf "$dir"; mv -T "$tmp" "$dir"; }
trap - EXIT
echo "druid: built helm $hver in $(( $(date +%s) - start ))s: $dir/helm" >&2
echo "$dir/helm" >&3
