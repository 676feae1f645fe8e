#!/usr/bin/env bash
# Builds fake-gcs-server (a Google Cloud Storage emulator) from the Go module proxy, at the
# version pinned in go.mod next to this script, into
#   ${DRUID_BIN_CACHE:-$HOME/.cache/etcd-druid/bin}/fake-gcs-server-<version>/fake-gcs-server
# and prints that directory as the LAST line of stdout (everything else goes to stderr).
# A complete directory is returned at once; it appears atomically (built in a temp dir, then
# renamed) and concurrent runs serialise on a lock.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=$(awk '$1=="require" && $2=="github.com/fsouza/fake-gcs-server" {print $3; exit}' "$here/go.mod")
[ -n "$version" ] || { echo "druid: cannot read the fake-gcs-server version from $here/go.mod" >&2; exit 1; }

root=${DRUID_BIN_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/bin}
key="fake-gcs-server-$version"
dir="$root/$key"

if [ -x "$dir/fake-gcs-server" ]; then
  echo "$dir"
  exit 0
fi
exec 3>&1 1>&2
fail() { echo "druid: $*" >&2; exit 1; }
command -v go >/dev/null 2>&1 ||
  fail "Go is required to build fake-gcs-server $version (the GCS emulator of the store tests) but 'go' is not on PATH"

mkdir -p "$root"
exec 9>"$root/.lock-$key"
flock 9
if [ -x "$dir/fake-gcs-server" ]; then
  echo "$dir" >&3
  exit 0
fi
rm -rf "$root/.tmp-$key".* 2>/dev/null || true
tmp=$(mktemp -d "$root/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "druid: building fake-gcs-server $version from the Go module proxy" >&2
cd "$here"
export CGO_ENABLED=0 GOTOOLCHAIN=${GOTOOLCHAIN:-local}
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly -buildvcs=false"
go build -p "${DRUID_BUILD_JOBS:-2}" -trimpath -ldflags "-s -w" -o "$tmp/fake-gcs-server" \
  github.com/fsouza/fake-gcs-server
chmod 755 "$tmp"
mv -T "$tmp" "$dir" 2>/dev/null || { rm -rf "$dir" && mv -T "$tmp" "$dir"; }
trap - EXIT
echo "druid: built fake-gcs-server in $(( $(date +%s) - start ))s: $dir" >&2
echo "$dir" >&3
