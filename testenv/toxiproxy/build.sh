#!/usr/bin/env bash
# Builds the Toxiproxy server (a TCP proxy whose faults, "toxics", are set over its HTTP
# API: latency, bandwidth, timeouts, resets) from the Go module proxy, at the version pinned
# in go.mod next to this script, into
#   ${DRUID_BIN_CACHE:-$HOME/.cache/etcd-druid/bin}/toxiproxy-<version>/toxiproxy-server
# and prints that file as the LAST line of stdout (everything else goes to stderr).
# A complete cache entry returns at once without touching Go. The directory appears
# atomically (built in a temp dir, then renamed); concurrent runs serialise on flock.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tver=$(awk '$1=="require" && $2=="github.com/Shopify/toxiproxy/v2" {print $3; exit}' "$here/go.mod")
gomin=$(awk '$1=="go" {print $2; exit}' "$here/go.mod")
[ -n "$tver" ] && [ -n "$gomin" ] || { echo "druid: cannot read the Toxiproxy/Go versions from $here/go.mod" >&2; exit 1; }

root=${DRUID_BIN_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/bin}
key="toxiproxy-$tver"
dir="$root/$key"

if [ -x "$dir/toxiproxy-server" ]; then
  echo "$dir/toxiproxy-server"
  exit 0
fi
exec 3>&1 1>&2
fail() { echo "druid: $*" >&2; exit 1; }

command -v go >/dev/null 2>&1 ||
  fail "Go >= ${gomin%.0} is required to build Toxiproxy $tver but 'go' is not on PATH; install it (https://go.dev/dl or apt-get install golang) and retry"
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly -buildvcs=false"

mkdir -p "$root"
exec 9>"$root/.lock-$key"
if ! flock -n 9; then
  echo "druid: another build of $key is running; waiting for it" >&2
  flock 9
fi
if [ -x "$dir/toxiproxy-server" ]; then
  echo "$dir/toxiproxy-server" >&3
  exit 0
fi
rm -rf "$root/.tmp-$key".* 2>/dev/null || true
tmp=$(mktemp -d "$root/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "druid: building Toxiproxy $tver from the Go module proxy (Go $(go env GOVERSION)); cached in $dir afterwards" >&2
cd "$here"
go build -p "${DRUID_BUILD_JOBS:-2}" -trimpath \
  -ldflags "-s -w -X github.com/Shopify/toxiproxy/v2.Version=$tver" \
  -o "$tmp/toxiproxy-server" github.com/Shopify/toxiproxy/v2/cmd/server \
  || fail "building Toxiproxy $tver failed (GOPROXY=$(go env GOPROXY)); see the output above"
chmod 755 "$tmp"
mv -T "$tmp" "$dir" 2>/dev/null || { rm -rf "$dir"; mv -T "$tmp" "$dir"; }
trap - EXIT
echo "druid: built Toxiproxy $tver in $(( $(date +%s) - start ))s: $dir/toxiproxy-server" >&2
echo "$dir/toxiproxy-server" >&3
