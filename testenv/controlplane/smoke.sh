#!/usr/bin/env bash
# Smoke test of the binaries built by build.sh: starts etcd, kube-apiserver and
# kube-controller-manager on free 127.0.0.1 ports with the flag sets documented
# in README.md, checks they work (kubectl, controllers doing their job), and
# stops everything it started. Manual tool; not part of the Maven build.
#   bash testenv/controlplane/smoke.sh            # KEEP=1 leaves the work dir
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BIN=$(bash "$here/build.sh" | tail -n1)
W=$(mktemp -d /tmp/druid-cp-smoke.XXXXXX)
pids=()
names=()
stop() { # stop <pid> <name>: SIGTERM, up to 20 s, then SIGKILL
  local p=$1 n=$2 i t0
  kill -0 "$p" 2>/dev/null || return 0
  t0=$(date +%s%N); kill -TERM "$p" 2>/dev/null || true
  for i in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$p" 2>/dev/null; then kill -KILL "$p" 2>/dev/null || true; echo "smoke: $n ignored SIGTERM for 20s, killed" >&2
  else echo "smoke: $n stopped $(since "$t0")s after SIGTERM" >&2; fi
  wait "$p" 2>/dev/null || true
}
cleanup() {
  # Reverse start order: with etcd gone first, kube-apiserver's graceful
  # shutdown hangs (observed: > 10 min).
  local i
  for (( i=${#pids[@]}-1; i>=0; i-- )); do stop "${pids[$i]}" "${names[$i]}"; done
  if [ "${KEEP:-0}" = 1 ]; then echo "work dir kept: $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT
say() { echo "smoke: $*" >&2; }
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
since() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN{printf "%.1f", (b-a)/1e9}'; }
waitfor() { # waitfor <seconds> <description> <command...>
  local t=$1 what=$2; shift 2
  local end=$(( $(date +%s) + t ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$end" ] || { say "TIMEOUT waiting for $what"; return 1; }
    sleep 0.2
  done
}

EC=$(freeport); EP=$(freeport); AP=$(freeport); KP=$(freeport)
TOKEN=$(openssl rand -hex 16)

# ---- etcd ---------------------------------------------------------------
t0=$(date +%s%N)
"$BIN/etcd" \
  --name=controlplane \
  --data-dir="$W/etcd" \
  --listen-client-urls="http://127.0.0.1:$EC" \
  --advertise-client-urls="http://127.0.0.1:$EC" \
  --listen-peer-urls="http://127.0.0.1:$EP" \
  --initial-advertise-peer-urls="http://127.0.0.1:$EP" \
  --initial-cluster="controlplane=http://127.0.0.1:$EP" \
  --initial-cluster-state=new \
  --unsafe-no-fsync=true \
  --log-level=warn \
  >"$W/etcd.log" 2>&1 &
pids+=($!) names+=(etcd)
waitfor 30 "etcd health" "$BIN/etcdctl" --endpoints="http://127.0.0.1:$EC" endpoint health
say "etcd healthy on 127.0.0.1:$EC after $(since "$t0")s"

# ---- kube-apiserver -----------------------------------------------------
openssl genrsa -out "$W/sa.key" 2048 2>/dev/null
openssl rsa -in "$W/sa.key" -pubout -out "$W/sa.pub" 2>/dev/null
echo "$TOKEN,admin,admin-uid,system:masters" > "$W/tokens.csv"
mkdir -p "$W/apiserver-certs"
t0=$(date +%s%N)
"$BIN/kube-apiserver" \
  --etcd-servers="http://127.0.0.1:$EC" \
  --secure-port="$AP" \
  --bind-address=127.0.0.1 \
  --advertise-address=127.0.0.1 \
  --cert-dir="$W/apiserver-certs" \
  --authorization-mode=RBAC \
  --token-auth-file="$W/tokens.csv" \
  --service-account-issuer="https://127.0.0.1:$AP" \
  --service-account-key-file="$W/sa.pub" \
  --service-account-signing-key-file="$W/sa.key" \
  --service-cluster-ip-range=10.0.0.0/24 \
  --allow-privileged=true \
  --endpoint-reconciler-type=none \
  >"$W/kube-apiserver.log" 2>&1 &
pids+=($!) names+=(kube-apiserver)
API="https://127.0.0.1:$AP"
waitfor 90 "kube-apiserver /readyz" curl -fsk -H "Authorization: Bearer $TOKEN" "$API/readyz"
say "kube-apiserver ready on $API after $(since "$t0")s"
curl -fsk -H "Authorization: Bearer $TOKEN" "$API/version" | grep '"gitVersion"' >&2
K=(kubectl --server="$API" --token="$TOKEN" --insecure-skip-tls-verify=true)
"${K[@]}" get ns >&2
# --endpoint-reconciler-type=none: the Service still exists, without endpoints (a
# loopback endpoint IP is rejected by validation and logged every 10 s otherwise).
waitfor 30 "Service default/kubernetes" "${K[@]}" -n default get svc kubernetes

# ---- kube-controller-manager ---------------------------------------------
cat > "$W/kcm.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: $API
    certificate-authority: $W/apiserver-certs/apiserver.crt
users:
- name: admin
  user:
    token: $TOKEN
contexts:
- name: local
  context: {cluster: local, user: admin}
current-context: local
EOF
CONTROLLERS=${CONTROLLERS:-serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller,namespace-controller,garbage-collector-controller,statefulset-controller,deployment-controller,replicaset-controller,job-controller,ttl-after-finished-controller,disruption-controller,endpoints-controller,endpointslice-controller,persistentvolume-binder-controller,persistentvolume-expander-controller,persistentvolumeclaim-protection-controller,persistentvolume-protection-controller}
t0=$(date +%s%N)
"$BIN/kube-controller-manager" \
  --kubeconfig="$W/kcm.kubeconfig" \
  --leader-elect=false \
  --controllers="$CONTROLLERS" \
  --service-account-private-key-file="$W/sa.key" \
  --root-ca-file="$W/apiserver-certs/apiserver.crt" \
  --use-service-account-credentials=false \
  --bind-address=127.0.0.1 \
  --secure-port="$KP" \
  --cert-dir="$W/kcm-certs" \
  >"$W/kube-controller-manager.log" 2>&1 &
pids+=($!) names+=(kube-controller-manager)
waitfor 60 "kube-controller-manager /healthz" curl -fsk "https://127.0.0.1:$KP/healthz"
say "kube-controller-manager healthy on 127.0.0.1:$KP after $(since "$t0")s"

# ---- controllers do their job ---------------------------------------------
"${K[@]}" create ns smoke >&2
waitfor 30 "default ServiceAccount (serviceaccount-controller)" "${K[@]}" -n smoke get sa default
waitfor 30 "kube-root-ca.crt (root-ca-certificate-publisher-controller)" "${K[@]}" -n smoke get cm kube-root-ca.crt
"${K[@]}" apply -f - >&2 <<'EOF'
apiVersion: v1
kind: PersistentVolume
metadata: {name: smoke-pv}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: standard
  hostPath: {path: /tmp/druid-smoke-pv}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: smoke-pvc, namespace: smoke}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: standard
  resources: {requests: {storage: 1Gi}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: smoke, namespace: smoke}
spec:
  replicas: 2
  serviceName: smoke
  selector: {matchLabels: {app: smoke}}
  template:
    metadata: {labels: {app: smoke}}
    spec:
      containers: [{name: c, image: busybox}]
EOF
bound() { [ "$("${K[@]}" -n smoke get pvc smoke-pvc -o 'jsonpath={.status.phase}')" = Bound ]; }
waitfor 60 "PVC bound (persistentvolume-binder-controller)" bound
waitfor 30 "StatefulSet pod (statefulset-controller)" "${K[@]}" -n smoke get pod smoke-0
"${K[@]}" -n smoke get pvc,pod >&2
# Namespace deletion needs namespace-controller (+ garbage collector for owned objects).
"${K[@]}" delete ns smoke --wait=false >&2
gone() { ! "${K[@]}" get ns smoke >/dev/null 2>&1; }
# Pods never run (no kubelet) and are force-removed by the namespace controller only
# after their grace period; give it time.
waitfor 90 "namespace smoke deleted (namespace-controller)" gone
"${K[@]}" delete pv smoke-pv --wait=true >&2
# Every listening socket of the three processes must be on 127.0.0.1.
for i in "${!pids[@]}"; do
  socks=$(ss -Hltnp 2>/dev/null | grep "pid=${pids[$i]}," | awk '{print $4}' | sort -u | tr '\n' ' ')
  say "${names[$i]} listens on: $socks"
  for a in $socks; do case $a in 127.0.0.1:*) ;; *) say "FAIL: ${names[$i]} listens on $a"; exit 1;; esac; done
done
if grep -q "unable to sync kubernetes service" "$W/kube-apiserver.log"; then say "FAIL: endpoint reconciler errors"; exit 1; fi
say "OK: etcd, kube-apiserver and kube-controller-manager work (binaries: $BIN)"
