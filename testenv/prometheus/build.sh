#!/usr/bin/env bash
# Builds prometheus and promtool from the Go module proxy, at the version pinned in go.mod next
# to this script, into
#   ${DRUID_BIN_CACHE:-$HOME/.cache/etcd-druid/bin}/prometheus-<version>/{prometheus,promtool}
# and prints that DIRECTORY as the LAST line of stdout (everything else goes to stderr).
# Only the static and file service discoveries are compiled in (build tag remove_all_sd): the
# tests scrape loopback addresses they write themselves, and the cloud SDKs would triple the
# build. No web UI assets either (the HTTP API is all the tests use).
# A complete cache entry returns at once without touching Go. The directory appears
# atomically (built in a temp dir, then renamed); concurrent runs serialise on flock.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pver=$(awk '$1=="require" && $2=="github.com/prometheus/prometheus" {print $3; exit}' "$here/go.mod")
gomin=$(awk '$1=="go" {print $2; exit}' "$here/go.mod")
[ -n "$pver" ] && [ -n "$gomin" ] || { echo "druid: cannot read the prometheus/Go versions from $here/go.mod" >&2; exit 1; }

root=${DRUID_BIN_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/bin}
key="prometheus-$pver"
dir="$root/$key"

if [ -x "$dir/prometheus" ] && [ -x "$dir/promtool" ]; then
  echo "$dir"
  exit 0
fi
exec 3>&1 1>&2
fail() { echo "druid: $*" >&2; exit 1; }

command -v go >/dev/null 2>&1 ||
  fail "Go >= ${gomin%.0} is required to build prometheus $pver but 'go' is not on PATH; install it (https://go.dev/dl or apt-get install golang) and retry"
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly -buildvcs=false"

mkdir -p "$root"
exec 9>"$root/.lock-$key"
if ! flock -n 9; then
  echo "druid: another build of $key is running; waiting for it" >&2
  flock 9
fi
if [ -x "$dir/prometheus" ] && [ -x "$dir/promtool" ]; then
  echo "$dir" >&3
  exit 0
fi
rm -rf "$root/.tmp-$key".* 2>/dev/null || true
tmp=$(mktemp -d "$root/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "druid: building prometheus and promtool $pver from the Go module proxy (Go $(go env GOVERSION)); cached in $dir afterwards" >&2
cd "$here"
ldflags="-s -w -X github.com/prometheus/common/version.Version=${pver#v} -X github.com/prometheus/common/version.Branch=module-proxy"
for cmd in prometheus promtool; do
  go build -p "${DRUID_BUILD_JOBS:-2}" -trimpath -tags remove_all_sd -ldflags "$ldflags" \
    -o "$tmp/$cmd" "github.com/prometheus/prometheus/cmd/$cmd" \
    || fail "building $cmd $pver failed (GOPROXY=$(go env GOPROXY)); see the output above"
done
chmod 755 "$tmp"
mv -T "$tmp" "$dir" 2>/dev/null || { rm -rf "$dir"; mv -T "$tmp" "$dir"; }
trap - EXIT
echo "druid: built prometheus and promtool $pver in $(( $(date +%s) - start ))s: $dir" >&2
echo "$dir" >&3
