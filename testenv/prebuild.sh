#!/usr/bin/env bash
# Warms every cache the tests build lazily, in the order `mvn -B verify` first needs them:
# the control plane (kube-apiserver, kube-controller-manager, etcd 3.6), Toxiproxy, etcd 3.7
# and 3.5, the store emulators, Prometheus, helm. Each step is its own cached build script (a
# complete cache returns at once; a test that needs a build this script is running waits on that
# build's lock and reuses it), so running this beside the tests only moves work earlier.
# `.ci/run` starts it in the background at the lowest CPU priority; a person can run it
# before a first `mvn verify`. A failed step is reported and the next one runs: the test that
# needs it builds it again and fails with the script's own message.
#
# Prints one line per step: its name, seconds, and ok or failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
steps=(
  "control-plane controlplane/build.sh"
  "toxiproxy toxiproxy/build.sh"
  "etcd-3.7 etcd/build.sh v3.7"
  "etcd-3.5 etcd/build.sh v3.5"
  "fake-gcs-server emulators/fake-gcs-server/build.sh"
  "azurite emulators/azurite/install.sh"
  "prometheus prometheus/build.sh"
  "helm helm/build.sh"
)
failed=0
for s in "${steps[@]}"; do
  read -r name script args <<<"$s"
  start=$(date +%s)
  # shellcheck disable=SC2086 # args is one optional word
  if bash "$here/$script" ${args:-} >/dev/null; then
    result=ok
  else
    result=failed
    failed=1
  fi
  echo "prebuild: $name $(( $(date +%s) - start ))s $result"
done
exit "$failed"
