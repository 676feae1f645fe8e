#!/usr/bin/env bash
# Builds etcd, etcdctl and etcdutl of one supported etcd minor from the Go module proxy into
#   ${DRUID_BIN_CACHE:-$HOME/.cache/etcd-druid/bin}/etcd-<version>/
# and prints that directory as the LAST line of stdout (everything else goes to stderr).
# Usage: build.sh v3.5|v3.6|v3.7. The version of each minor is the require line of
# go.etcd.io/etcd/server/v3 in <minor>/go.mod; 3.6 is the control plane's etcd
# (../controlplane/build.sh), built there once for both. Same cache rules as that script:
# a complete directory returns at once, it appears atomically, concurrent builds serialise.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
minor=${1:?usage: build.sh v3.5|v3.6|v3.7}
root=${DRUID_BIN_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/bin}
if [ "$minor" = v3.6 ]; then
  # the control plane's etcd, linked into the same layout as the other minors
  cp_dir=$(bash "$here/../controlplane/build.sh" | tail -n1)
  ever=$(awk '$1=="etcd" {print $2; exit}' "$cp_dir/VERSIONS")
  dir="$root/etcd-$ever"
  if [ ! -x "$dir/etcdutl" ]; then
    tmp=$(mktemp -d "$root/.tmp-etcd-$ever.XXXXXX")
    for b in etcd etcdctl etcdutl VERSIONS; do ln "$cp_dir/$b" "$tmp/$b" 2>/dev/null || cp "$cp_dir/$b" "$tmp/$b"; done
    chmod 755 "$tmp"
    mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
  fi
  echo "$dir"
  exit 0
fi
mod="$here/$minor"
[ -f "$mod/go.mod" ] || { echo "druid: no etcd minor $minor here (supported: $(cd "$here" && ls -d v3.* | tr '\n' ' ')v3.6)" >&2; exit 1; }
bins=(etcd etcdctl etcdutl)
ever=$(awk '$1=="go.etcd.io/etcd/server/v3" && $2 ~ /^v[0-9]/ {print $2; exit}' "$mod/go.mod")
[ -n "$ever" ] || { echo "druid: cannot read the etcd version from $mod/go.mod" >&2; exit 1; }

key="etcd-${ever}"
dir="$root/$key"
complete() {
  local b
  for b in "${bins[@]}"; do [ -f "$1/$b" ] && [ -x "$1/$b" ] || return 1; done
}
if complete "$dir"; then
  echo "$dir"
  exit 0
fi
exec 3>&1 1>&2
fail() { echo "druid: $*" >&2; exit 1; }
command -v go >/dev/null 2>&1 || fail "Go is required to build etcd $ever but 'go' is not on PATH"
export GOTOOLCHAIN=${GOTOOLCHAIN:-local} CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly -buildvcs=false"
jobs=${DRUID_BUILD_JOBS:-2}
mkdir -p "$root"
cd "$mod"
exec 9>"$root/.lock-$key"
if ! flock -n 9; then
  echo "druid: another build of $key is running; waiting for it" >&2
  flock 9
fi
if complete "$dir"; then
  echo "$dir" >&3
  exit 0
fi
rm -rf "$root/.tmp-$key".* 2>/dev/null || true
tmp=$(mktemp -d "$root/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "druid: building etcd $ever from the Go module proxy (Go $(go env GOVERSION), -p $jobs); cached in $dir for the next time" >&2
server=go.etcd.io/etcd/server/v3
[ -f etcd/main.go ] && server=./etcd
log="$root/.download-$key.log"
go list -deps "$server" go.etcd.io/etcd/etcdctl/v3 go.etcd.io/etcd/etcdutl/v3 >/dev/null 2>"$log" ||
  fail "downloading the Go modules for etcd $ever failed (GOPROXY=$(go env GOPROXY)); details: $log"
rm -f "$log"
flags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=$ever"
go build -p "$jobs" -trimpath -ldflags "$flags" -o "$tmp/etcd" "$server"
go build -p "$jobs" -trimpath -ldflags "$flags" -o "$tmp/etcdctl" go.etcd.io/etcd/etcdctl/v3
go build -p "$jobs" -trimpath -ldflags "$flags" -o "$tmp/etcdutl" go.etcd.io/etcd/etcdutl/v3
complete "$tmp" || fail "build finished but binaries are missing in $tmp"
printf 'etcd %s\ngo %s\n' "$ever" "$(go env GOVERSION)" > "$tmp/VERSIONS"
chmod 755 "$tmp"
mv -T "$tmp" "$dir" 2>/dev/null || { complete "$dir" || fail "could not install the binaries into $dir"; rm -rf "$tmp"; }
trap - EXIT
echo "druid: built etcd $ever in $(( $(date +%s) - start ))s: $dir" >&2
echo "$dir" >&3
