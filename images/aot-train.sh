#!/usr/bin/env bash
# The AOT cache's training run (JDK >= 25, JEP 483/514/515), called by images/build.sh:
#   images/aot-train.sh JAVA JAR ETCD_BIN_DIR OUT.aot [JVM FLAGS...]
# Runs what a member's agent does at its start, on 127.0.0.1 only: a first, unrecorded agent
# fills a Local store with a full snapshot and a delta; its data dir is wiped; the recorded
# agent restores from that store, serves /healthz and its API, takes a full and a delta
# snapshot and stops on SIGTERM, when the JVM writes OUT.aot. JAR must have the size and
# mtime of the image's jar (the cache is bound to them, not to the path). The API is served
# over TLS with client certificates, as the operator's members serve it (throwaway EC P-256
# keys from openssl, like the operator's): the JDK's TLS classes are in the cache too.
set -euo pipefail
java=$1 jar=$2 bin_dir=$3 out=$4
shift 4
flags=("$@")
fail() { echo "druid: aot training: $*" >&2; exit 1; }
note() { echo "druid: aot training: $SECONDS s: $*" >&2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/druid-aot-train.XXXXXX")
pid=""
cleanup() { [ -z "$pid" ] || kill -9 "$pid" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
mkdir -p "$dir/store"
port=$((20000 + RANDOM % 20000))
client=$port peer=$((port + 1)) server=$((port + 2))
api="https://127.0.0.1:$server"

# A CA, the agent's serving certificate and the operator's client certificate.
tls="$dir/tls"
mkdir -p "$tls"
issue() { # NAME CN EXTENSIONS: a key and a certificate signed by the CA
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$2" \
    -keyout "$tls/$1.key" -out "$tls/$1.csr" 2>/dev/null
  openssl x509 -req -in "$tls/$1.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -set_serial "0x$RANDOM$RANDOM" \
    -days 2 -extfile <(printf '%s\n' "$3") -out "$tls/$1.crt" 2>/dev/null
}
openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=train-ca \
  -days 2 -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null || fail "openssl cannot issue the training's CA"
issue tls train-0 "subjectAltName=IP:127.0.0.1
extendedKeyUsage=serverAuth"
issue client etcd-druid-operator "extendedKeyUsage=clientAuth"
curl_tls=(--cacert "$tls/ca.crt" --cert "$tls/client.crt" --key "$tls/client.key")

start_agent() { # $1: log file, then extra JVM flags
  local log=$1; shift
  "$java" "${flags[@]}" "$@" -jar "$jar" agent --name=train-0 --etcd-name=train --namespace=default \
    --pod-ip=127.0.0.1 --advertise-host=127.0.0.1 --client-port="$client" --peer-port="$peer" \
    --server-port="$server" --initial-cluster="train-0=http://127.0.0.1:$peer" \
    --data-dir="$dir/data/new.etcd" --etcd-bin-dir="$bin_dir" --init-retry-period=1s \
    --leases=false --server-tls-dir="$tls" --store-provider=Local --store-container="$dir/store" \
    --store-prefix=default--train "--full-snapshot-schedule=0 0 1 1 *" \
    --delta-snapshot-period=1h >"$log" 2>&1 &
  pid=$!
  note "agent started"
  local i
  for ((i = 0; i < 1200; i++)); do
    [ "$(curl -s "${curl_tls[@]}" -o /dev/null -w '%{http_code}' "$api/healthz")" = 200 ] && { note "/healthz 200"; return 0; }
    kill -0 "$pid" 2>/dev/null || { tail -n 30 "$log" >&2; fail "the agent exited before /healthz answered 200"; }
    sleep 0.1
  done
  tail -n 30 "$log" >&2
  fail "the agent did not answer /healthz with 200 within 120 s"
}
stop_agent() {
  note "stopping the agent"
  kill -TERM "$pid"
  wait "$pid" || true
  pid=""
  note "agent stopped"
}
call() { # METHOD PATH: the agent's API must answer 2xx
  local code
  code=$(curl -s "${curl_tls[@]}" -o "$dir/answer" -w '%{http_code}' -X "$1" "$api$2")
  note "$1 $2: $code"
  [[ $code == 2* ]] || fail "$1 $2 answered $code: $(head -c 300 "$dir/answer")"
}
put_keys() { # FROM TO (at most 100 keys): keys /train/FROM..TO in one txn through etcd's JSON gateway
  local i ops="" sep=""
  for ((i = $1; i < $2; i++)); do
    ops+="$sep{\"requestPut\":{\"key\":\"$(printf '/train/%05d' "$i" | base64 -w0)\",\"value\":\"$(printf 'value-%05d' "$i" | base64 -w0)\"}}"
    sep=,
  done
  curl -sf -o /dev/null -X POST "http://127.0.0.1:$client/v3/kv/txn" -d "{\"success\":[$ops]}" ||
    fail "etcd did not take keys $1..$2"
}

# 1. Unrecorded: a store with a full snapshot and a delta.
start_agent "$dir/prepare.log"
put_keys 0 100
call POST /snapshot/full
put_keys 100 200
call POST /snapshot/delta
stop_agent
rm -rf "$dir/data"

# 2. Recorded: restore, serve, snapshot, stop.
start_agent "$dir/train.log" -XX:AOTCacheOutput="$out"
curl -s -X POST "http://127.0.0.1:$client/v3/kv/range" -d "{\"key\":\"$(printf '/train/%05d' 199 | base64 -w0)\"}" |
  grep -q '"count":"1"' || fail "the restore lost the delta's keys"
call GET /config
call GET /member/status
call GET /metrics
put_keys 200 250
call POST /snapshot/full
put_keys 250 300
call POST /snapshot/delta
call GET /snapshot/latest
stop_agent
[ -s "$out" ] || { tail -n 30 "$dir/train.log" >&2; fail "the JVM wrote no AOT cache at $out"; }
