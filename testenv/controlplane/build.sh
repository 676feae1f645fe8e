#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, etcd, etcdctl and etcdutl from
# the Go module proxy, at the versions pinned in go.mod next to this script, into
#   ${DRUID_BIN_CACHE:-$HOME/.cache/etcd-druid/bin}/k8s-<kver>_etcd-<ever>/
# and prints that directory as the LAST line of stdout (everything else goes to
# stderr). If the directory is already complete it returns at once without
# touching Go. The directory appears atomically (built in a temp dir next to it,
# then renamed), so it is never half populated; concurrent runs serialise on a
# lock (flock) and the loser reuses the winner's result.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bins=(kube-apiserver kube-controller-manager etcd etcdctl etcdutl)

# Single source of truth: the require lines in go.mod.
kver=$(awk '$1=="k8s.io/kubernetes" && $2 ~ /^v[0-9]/ {print $2; exit}' "$here/go.mod")
ever=$(awk '$1=="go.etcd.io/etcd/server/v3" && $2 ~ /^v[0-9]/ {print $2; exit}' "$here/go.mod")
gomin=$(awk '$1=="go" {print $2; exit}' "$here/go.mod")
if [ -z "$kver" ] || [ -z "$ever" ] || [ -z "$gomin" ]; then
  echo "druid: cannot read the Kubernetes/etcd/Go versions from $here/go.mod" >&2
  exit 1
fi

root=${DRUID_BIN_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/bin}
key="k8s-${kver}_etcd-${ever}"
dir="$root/$key"

complete() {
  local b
  for b in "${bins[@]}"; do [ -f "$1/$b" ] && [ -x "$1/$b" ] || return 1; done
}

# Fast path: nothing to do.
if complete "$dir"; then
  echo "$dir"
  exit 0
fi

# From here on, all chatter goes to stderr; fd 3 is the real stdout.
exec 3>&1 1>&2

fail() { echo "druid: $*" >&2; exit 1; }

need="Go >= ${gomin%.0}"
command -v go >/dev/null 2>&1 ||
  fail "$need is required to build the local control plane (kube-apiserver, etcd) but 'go' is not on PATH; install it (https://go.dev/dl or apt-get install golang) and retry"

# Use the installed toolchain unless the caller chose a GOTOOLCHAIN policy.
if [ -z "${GOTOOLCHAIN:-}" ]; then
  export GOTOOLCHAIN=local
  have=$(go env GOVERSION 2>/dev/null | sed -n 's/^go\([0-9][0-9.]*\).*/\1/p')
  if [ -z "$have" ] || [ "$(printf '%s\n%s\n' "$gomin" "$have" | sort -V | head -n1)" != "$gomin" ]; then
    fail "$need is required to build the local control plane; found '$(go env GOVERSION 2>/dev/null || echo unknown)'; install a newer Go (https://go.dev/dl) or set GOTOOLCHAIN=auto, and retry"
  fi
fi

mkdir -p "$root"
cd "$here"
export CGO_ENABLED=0
# 2-core machines: at most 2 compile jobs; never touch go.mod/go.sum during a build.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly -buildvcs=false"
jobs=${DRUID_BUILD_JOBS:-2}

# Serialise concurrent builds of the same versions (second one waits, then reuses).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$root/.lock-$key"
  if ! flock -n 9; then
    echo "druid: another build of $key is running; waiting for it" >&2
    flock 9
  fi
  if complete "$dir"; then
    echo "$dir" >&3
    exit 0
  fi
  # We hold the lock: temp dirs of this key are leftovers of killed builds.
  rm -rf "$root/.tmp-$key".* 2>/dev/null || true
fi

tmp=$(mktemp -d "$root/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "druid: building kube-apiserver/kube-controller-manager $kver and etcd $ever from the Go module proxy (Go $(go env GOVERSION), -p $jobs); a cold build takes about 13 min on 2 cores; cached in $dir for the next time" >&2

# 1. Fetch the modules the five programs need (and only those).
log="$root/.download-$key.log"
pkgs=(k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
      go.etcd.io/etcd/server/v3 go.etcd.io/etcd/etcdctl/v3 go.etcd.io/etcd/etcdutl/v3)
if ! go list -deps "${pkgs[@]}" >/dev/null 2>"$log"; then
  proxy=$(go env GOPROXY 2>/dev/null || echo '?')
  if grep -q 'GOPROXY=off' "$log"; then
    fail "Go module downloads are disabled (GOPROXY=off) and the sources for Kubernetes $kver / etcd $ever are not in the module cache; set GOPROXY and retry (details: $log)"
  fi
  if grep -Eqi 'dial tcp|no such host|i/o timeout|connection refused|network is unreachable|TLS handshake|proxyconnect|Client.Timeout|connection reset|server misbehaving' "$log"; then
    fail "cannot reach the Go module proxy (GOPROXY=$proxy) to download Kubernetes $kver / etcd $ever sources; check the network or GOPROXY and retry (details: $log)"
  fi
  fail "downloading the Go modules for Kubernetes $kver / etcd $ever failed (GOPROXY=$proxy); details: $log"
fi
rm -f "$log"

# 2. Compile. -s -w: no symbol tables (smaller, faster link).
kminor=${kver#v1.}; kminor=${kminor%%.*}
kv=k8s.io/component-base/version
kflags="-s -w -X $kv.gitVersion=$kver -X $kv.gitMajor=1 -X $kv.gitMinor=$kminor -X $kv.gitTreeState=clean"
eflags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=$ever"

go build -p "$jobs" -trimpath -ldflags "$kflags" -o "$tmp/" \
  k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
go build -p "$jobs" -trimpath -ldflags "$eflags" -o "$tmp/etcd" go.etcd.io/etcd/server/v3
go build -p "$jobs" -trimpath -ldflags "$eflags" -o "$tmp/etcdctl" go.etcd.io/etcd/etcdctl/v3
go build -p "$jobs" -trimpath -ldflags "$eflags" -o "$tmp/etcdutl" go.etcd.io/etcd/etcdutl/v3
complete "$tmp" || fail "build finished but binaries are missing in $tmp"
printf 'kubernetes %s\netcd %s\ngo %s\n' "$kver" "$ever" "$(go env GOVERSION)" > "$tmp/VERSIONS"
chmod 755 "$tmp"

# 3. Publish atomically. rename(2) onto a missing or empty dir is atomic; an
#    existing incomplete dir (e.g. a binary deleted by hand) is moved aside first.
if ! mv -T "$tmp" "$dir" 2>/dev/null; then
  if complete "$dir"; then
    rm -rf "$tmp"
  else
    old=$(mktemp -d "$root/.old-$key.XXXXXX")
    mv -T "$dir" "$old/d" && mv -T "$tmp" "$dir"
    rm -rf "$old"
  fi
fi
trap - EXIT
complete "$dir" || fail "could not install the binaries into $dir"
echo "druid: built in $(( $(date +%s) - start ))s: $dir" >&2
echo "$dir" >&3
