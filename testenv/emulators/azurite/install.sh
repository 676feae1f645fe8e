#!/usr/bin/env bash
# Installs Azurite (the Azure Storage emulator the store tests start) from the npm registry,
# exactly as package-lock.json next to this script pins it, into
#   ${DRUID_BIN_CACHE:-$HOME/.cache/etcd-druid/bin}/azurite-<version>/
# and prints the path of its azurite-blob launcher as the LAST line of stdout (everything else
# goes to stderr). A complete install is returned at once; it appears atomically (installed
# in a temp dir, then renamed) and concurrent runs serialise on a lock.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=$(sed -n 's/^ *"azurite": "\([0-9][0-9.]*\)".*/\1/p' "$here/package.json" | head -n1)
[ -n "$version" ] || { echo "druid: cannot read the Azurite version from $here/package.json" >&2; exit 1; }

root=${DRUID_BIN_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/bin}
key="azurite-$version"
dir="$root/$key"
launcher="$dir/node_modules/.bin/azurite-blob"

if [ -x "$launcher" ]; then
  echo "$launcher"
  exit 0
fi
exec 3>&1 1>&2
fail() { echo "druid: $*" >&2; exit 1; }
command -v npm >/dev/null 2>&1 ||
  fail "Node.js and npm are required to install Azurite $version (the Azure Blob Storage emulator of the store tests) but 'npm' is not on PATH (apt-get install nodejs npm)"

mkdir -p "$root"
exec 9>"$root/.lock-$key"
flock 9
if [ -x "$launcher" ]; then
  echo "$launcher" >&3
  exit 0
fi
rm -rf "$root/.tmp-$key".* 2>/dev/null || true
tmp=$(mktemp -d "$root/.tmp-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "druid: installing Azurite $version from the npm registry" >&2
cp "$here/package.json" "$here/package-lock.json" "$tmp/"
(cd "$tmp" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
[ -x "$tmp/node_modules/.bin/azurite-blob" ] || fail "npm ci finished but azurite-blob is missing in $tmp"
chmod 755 "$tmp"
mv -T "$tmp" "$dir" 2>/dev/null || { rm -rf "$dir" && mv -T "$tmp" "$dir"; }
trap - EXIT
echo "druid: installed Azurite in $(( $(date +%s) - start ))s: $dir" >&2
echo "$launcher" >&3
