#!/usr/bin/env bash
# Builds the etcd-druid-jvm OCI image (operator and member in one: `druid operator`,
# `druid agent`, etcd and etcdutl) without a container daemon, as an OCI archive:
#   ${DRUID_IMAGE_CACHE:-$HOME/.cache/etcd-druid/images}/etcd-druid-jvm-<version>-<inputs>.oci.tar
# and prints its path as the LAST line of stdout (everything else goes to stderr).
#
#   images/build.sh [--jar cli/target/druid.jar] [--tag TAG]
#   images/build.sh --context DIR    # only writes a build context for images/Containerfile
#
# Layers, least changing first: Debian libraries (mmdebstrap of libc6, libgcc-s1,
# libstdc++6, zlib1g; cached by package list), a jlink runtime of a JDK 25 (cached by JDK
# version, module list and jlink options), etcd + etcdutl (testenv/controlplane/build.sh),
# the jar (picocli's class files upgraded to version 52 by ClassFileUpgrade.java, so that
# the AOT cache can hold them), its AOT cache from a training run (images/aot-train.sh).
# Every layer is a tar with sorted names, fixed mtimes and numeric root ownership,
# gzip -n: the same inputs give the same digest, except the AOT cache's layer (a training
# run's profiles differ every time). The lower three layers are cached by their inputs, the
# image by the hash of all inputs (aot-train.sh among them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
jar="$repo/cli/target/druid.jar"
tag=""
context=""
while (($#)); do
  case "$1" in
    --jar) jar=$2; shift 2 ;;
    --tag) tag=$2; shift 2 ;;
    --context) context=$2; shift 2 ;;
    *) echo "druid: unknown option $1 (usage: images/build.sh [--jar FILE] [--tag TAG])" >&2; exit 2 ;;
  esac
done
exec 3>&1 1>&2
fail() { echo "druid: $*" >&2; exit 1; }
step() { echo "druid: image: $*" >&2; }

[ -f "$jar" ] || fail "no jar at $jar; build it first (mvn -B -pl cli -am package -DskipTests)"
for tool in mmdebstrap sha256sum gzip tar jlink openssl curl; do
  command -v "$tool" >/dev/null 2>&1 ||
    fail "'$tool' is needed to build the image; on Debian/Ubuntu: apt-get install mmdebstrap openjdk-17-jdk-headless openssl curl (.ci/run installs them)"
done

if [ -n "$context" ]; then
  bin_dir=$("$repo/testenv/controlplane/build.sh" | tail -n1)
  mkdir -p "$context"
  cp "$here/Containerfile" "$here/aot-train.sh" "$here/ClassFileUpgrade.java" "$jar" "$bin_dir/etcd" "$bin_dir/etcdutl" "$context/"
  # every supported etcd minor, as the image keeps them: etcd-versions/etcd-v<version>/{etcd,etcdutl}
  for minor in v3.5 v3.6 v3.7; do
    d=$(bash "$repo/testenv/etcd/build.sh" "$minor" | tail -n1)
    mkdir -p "$context/etcd-versions/$(basename "$d")"
    cp "$d/etcd" "$d/etcdutl" "$context/etcd-versions/$(basename "$d")/"
  done
  [ "$(basename "$jar")" = druid.jar ] || mv "$context/$(basename "$jar")" "$context/druid.jar"
  step "build context for images/Containerfile written to $context"
  echo "$context" >&3
  exit 0
fi

name=etcd-druid-jvm
version=$(sed -n '0,/<version>/s#.*<version>\(.*\)</version>.*#\1#p' "$repo/pom.xml")
revision=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)
git -C "$repo" diff --quiet HEAD -- 2>/dev/null || revision="$revision-dirty"
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)}
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
tag=${tag:-$version}
cache=${DRUID_IMAGE_CACHE:-${HOME:?HOME is not set}/.cache/etcd-druid/images}
mkdir -p "$cache"

# One build at a time per cache (they share the base and runtime entries).
exec 9>"$cache/.lock"
flock -n 9 || { step "another image build is running; waiting for it"; flock 9; }

hashof() { sha256sum | cut -c1-16; }
start=$(date +%s)

# 1. Debian libraries the JVM links against, plus their copyright files.
packages="libc6 libgcc-s1 libstdc++6 zlib1g"
suite=bookworm
base_key=$(printf '%s\n' "$suite" "$packages" "base-v1" | hashof)
base="$cache/base-$base_key.tar"
if [ ! -f "$base" ]; then
  step "assembling the Debian base ($packages from $suite) with mmdebstrap; about a minute, cached in $base"
  t=$(mktemp -d "$cache/.tmp-base.XXXXXX")
  mmdebstrap --quiet --variant=extract --include="${packages// /,}" \
    --extract-hook='for d in "$1"/var/cache/apt/archives/*.deb; do dpkg-deb -f "$d" Package Version; done > "$1/.packages"' \
    "$suite" "$t/full.tar" \
    "deb http://deb.debian.org/debian $suite main" \
    "deb http://deb.debian.org/debian $suite-updates main" \
    "deb http://deb.debian.org/debian-security $suite-security main" >&2
  mkdir "$t/root"
  tar -xf "$t/full.tar" -C "$t/root" --exclude=./dev --exclude=./etc/apt --exclude=./etc/dpkg \
    --exclude=./var --exclude=./etc/fstab --exclude=./etc/hostname --exclude=./etc/resolv.conf \
    --exclude='./usr/share/doc/*/changelog*' --exclude=./usr/share/lintian --exclude=./usr/share/locale \
    --exclude=./usr/share/man --exclude=./usr/share/info --exclude=./usr/lib/x86_64-linux-gnu/gconv \
    --exclude=./usr/bin --exclude=./usr/sbin --exclude=./sbin --exclude=./bin
  # "Package: x" / "Version: y" pairs → "x y" lines, for the SBOM
  paste -d' ' - - < "$t/root/.packages" | awk '{print $2, $4}' | sort > "$base.packages.tmp"
  rm "$t/root/.packages"
  tar -C "$t/root" -cf "$t/base.tar" .
  mv "$base.packages.tmp" "$base.packages"
  mv "$t/base.tar" "$base"
  rm -rf "$t"
fi

# 2. A trimmed Java runtime: jlinked from a JDK >= 25 ($DRUID_IMAGE_JDK, else the newest
# /usr/lib/jvm/* of version 25 or later), so that the image can carry an AOT cache (JEP 483,
# 514, 515: classes loaded and linked, method profiles, from a training run, step 4). Without
# one, the build JDK (17), with its default CDS archive at least.
java_major() { sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null; }
jdk=${DRUID_IMAGE_JDK:-}
if [ -z "$jdk" ]; then
  jdk=$(for d in /usr/lib/jvm/*/; do
    d=${d%/}; m=$(java_major "$d")
    [ -x "$d/bin/jlink" ] && [ "${m:-0}" -ge 25 ] && printf '%s %s\n' "$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$d/release")" "$d"
  done | sort -V | tail -n1 | cut -d' ' -f2 || true)
  # none: the build JDK
  [ -n "$jdk" ] || jdk=$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")
fi
[ -x "$jdk/bin/jlink" ] || fail "no jlink in $jdk (DRUID_IMAGE_JDK must be a JDK, not a runtime)"
jdk_major=$(java_major "$jdk")
if ((jdk_major < 25)); then
  echo "druid: WARNING: the image's runtime is jlinked from $jdk (Java $jdk_major): no JDK 25 or later" \
    "(DRUID_IMAGE_JDK, /usr/lib/jvm/*). The image gets its default CDS archive but NO AOT cache:" \
    "the agent needs about 2.5 times the CPU time to start (docs/benchmarks-history.md, third round)." >&2
fi
jdk_version=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
modules=java.base,java.logging,java.management,java.naming,java.net.http,java.sql,java.xml,jdk.crypto.ec,jdk.httpserver,jdk.unsupported,java.security.jgss,jdk.management
# zip-6 jimage: 23 MiB smaller than an uncompressed one, and with the AOT cache the classes a
# member loads come from the cache, so decompression costs no measurable start time
# (docs/benchmarks-history.md, third round). No default CDS archive beside the AOT cache: a JVM that refuses the
# cache runs without any CDS, so it would only serve a `java` run without the entry point.
# The JDK 17 fallback gets one (classes_nocoops.jsa, for heaps over 32 GiB, is dropped).
if ((jdk_major >= 25)); then
  jlink_options="--strip-debug --no-header-files --no-man-pages --compress=zip-6"
else
  jlink_options="--strip-debug --no-header-files --no-man-pages --compress=2 --generate-cds-archive"
fi
jre_key=$(printf '%s\n' "$jdk_version" "$modules" "$jlink_options" "jre-v2" | hashof)
jre="$cache/jre-$jre_key.tar"
if [ ! -f "$jre" ]; then
  step "linking a Java $jdk_version runtime with jlink; cached in $jre"
  t=$(mktemp -d "$cache/.tmp-jre.XXXXXX")
  # shellcheck disable=SC2086 # jlink_options is a word list
  "$jdk/bin/jlink" --add-modules "$modules" $jlink_options --output "$t/java"
  rm -f "$t/java/lib/server/classes_nocoops.jsa"
  tar -C "$t" -cf "$t/jre.tar" java
  mv "$t/jre.tar" "$jre"
  rm -rf "$t"
fi

# The JVM flags of the image's entry point. The AOT cache's training run uses the same list:
# the cache is refused by a JVM whose GC, object header layout or compressed-pointer mode
# differ from the training's.
jvm_flags=(-XX:+UseSerialGC -XX:MaxRAMPercentage=70 -Xss512k -Dsun.net.inetaddr.ttl=5)
# Netty's use of sun.misc.Unsafe and its native transport's System.load are allowed, not
# warned about at every start (JEP 471/498, JEP 472).
((jdk_major < 25)) || jvm_flags+=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)
aot=$(((jdk_major >= 25)) && echo /opt/druid/druid.aot || true)

# 3. etcd and etcdutl of every supported minor (built and cached by testenv/etcd/build.sh):
# /opt/etcd/etcd-v<version>/ each, the default one (the control plane's 3.6) also linked in
# /usr/local/bin. The minors are api's EtcdRelease; testenv's EtcdReleaseBuildTest keeps them in step.
bin_dir=$("$repo/testenv/controlplane/build.sh" | tail -n1)
etcd_version=$(awk '$1=="etcd" {print $2}' "$bin_dir/VERSIONS")
etcd_dirs=()
for minor in v3.5 v3.6 v3.7; do
  etcd_dirs+=("$(bash "$repo/testenv/etcd/build.sh" "$minor" | tail -n1)")
done
etcd_versions=$(for d in "${etcd_dirs[@]}"; do basename "$d" | sed 's/^etcd-v//'; done | paste -sd, -)
etcd_files=(); for d in "${etcd_dirs[@]}"; do etcd_files+=("$d/etcd" "$d/etcdutl"); done

# The jar's own CycloneDX SBOM (mvn package of the images module writes it), if built.
jar_sbom=${DRUID_JAR_SBOM:-$here/target/druid-jar.cdx.json}
[ -f "$jar_sbom" ] || { step "no jar SBOM at $jar_sbom (mvn -pl images -am package writes it); the image SBOM will not list the jar's libraries"; jar_sbom=""; }

inputs=$( { cat "$here/build.sh" "$here/aot-train.sh" "$here/ClassFileUpgrade.java"; sha256sum "$base" "$jre" "${etcd_files[@]}" "$jar" ${jar_sbom:+"$jar_sbom"} | cut -d' ' -f1;
  printf '%s\n' "$tag" "$version" "$revision" "$epoch"; } | hashof)
out="$cache/$name-$tag-$inputs.oci.tar"
if [ -f "$out" ]; then
  step "cached: $out"
  echo "$out" >&3
  exit 0
fi
step "building $name:$tag (etcd $etcd_versions, default $etcd_version, revision $revision)"

# The jar as the image carries it: picocli's class files (version 49, Java 5: a JDK 25 AOT
# cache leaves out classes older than version 50, so they would load and go through the old
# verifier at every start) rewritten to version 52 with stack maps by ClassFileUpgrade.java;
# every other entry as it was. Same jar in, same bytes out; cached by the jar's hash.
image_jar=$jar
if ((jdk_major >= 25)); then
  upgrade_key=$( { cat "$here/ClassFileUpgrade.java"; sha256sum "$jar" | cut -d' ' -f1; echo "$jdk_version"; } | hashof)
  image_jar="$cache/druid-$upgrade_key.jar"
  if [ ! -f "$image_jar" ]; then
    step "upgrading picocli's class files for the AOT cache (about 25 s; cached in $image_jar)"
    "$jdk/bin/java" "$here/ClassFileUpgrade.java" "$jar" "$image_jar" picocli/
  fi
fi

work=$(mktemp -d "$cache/.tmp-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
blobs="$work/layout/blobs/sha256"
mkdir -p "$blobs"

# Deterministic layer: sorted, fixed mtime, numeric root ownership, no gzip timestamp.
# Layers 1-3 get a fixed mtime and are cached by their inputs (only the jar layer is made
# on every build); the jar layer carries the commit time.
layer_epoch=1767225600 # 2026-01-01T00:00:00Z
layer_digests=() diff_ids=() layer_sizes=()
add_layer() { # $1: staging function, $2: cache key ("" = never cached), $3: mtime
  local cached="$cache/layer-$2" d diff
  if [ -z "$2" ] || [ ! -f "$cached.tgz" ]; then
    local s="$work/stage"; rm -rf "$s"; mkdir -p "$s"; "$1" "$s"
    tar --sort=name --mtime="@$3" --owner=0 --group=0 --numeric-owner --format=gnu \
      -C "$s" -cf "$work/layer.tar" .
    diff="sha256:$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
    gzip -n -6 < "$work/layer.tar" > "$work/layer.tgz"
    rm -rf "$work/layer.tar" "$s"
    if [ -n "$2" ]; then
      echo "$diff" > "$cached.diffid.tmp" && mv "$cached.diffid.tmp" "$cached.diffid"
      mv "$work/layer.tgz" "$cached.tgz"
    fi
  fi
  if [ -n "$2" ]; then
    diff=$(cat "$cached.diffid"); cp "$cached.tgz" "$work/layer.tgz"
  fi
  d=$(sha256sum "$work/layer.tgz" | cut -d' ' -f1)
  mv "$work/layer.tgz" "$blobs/$d"
  diff_ids+=("$diff"); layer_digests+=("sha256:$d"); layer_sizes+=("$(stat -c %s "$blobs/$d")")
}

# CycloneDX 1.5 SBOM of the image: Debian packages, the Java runtime, etcd, the jar (whose
# libraries are in the jar's own SBOM, referenced as an external BOM).
image_sbom() {
  local h serial comps="" sep="" pkg ver
  h=$(printf '%s' "$inputs" | sha256sum | cut -c1-32)
  serial="urn:uuid:${h:0:8}-${h:8:4}-${h:12:4}-${h:16:4}-${h:20:12}"
  while read -r pkg ver; do
    comps+="$sep{\"type\":\"library\",\"name\":\"$pkg\",\"version\":\"$ver\",\"purl\":\"pkg:deb/debian/$pkg@${ver//:/%3A}?arch=amd64&distro=debian-12\"}"
    sep=,
  done < "$base.packages"
  comps+=",{\"type\":\"framework\",\"name\":\"openjdk-runtime\",\"version\":\"$jdk_version\",\"description\":\"jlink runtime: $modules\",\"licenses\":[{\"license\":{\"id\":\"GPL-2.0-with-classpath-exception\"}}]}"
  local ev
  for ev in ${etcd_versions//,/ }; do
    comps+=",{\"type\":\"application\",\"name\":\"etcd\",\"version\":\"$ev\",\"purl\":\"pkg:golang/go.etcd.io/etcd/server/v3@v$ev\",\"licenses\":[{\"license\":{\"id\":\"Apache-2.0\"}}]}"
    comps+=",{\"type\":\"application\",\"name\":\"etcdutl\",\"version\":\"$ev\",\"purl\":\"pkg:golang/go.etcd.io/etcd/etcdutl/v3@v$ev\",\"licenses\":[{\"license\":{\"id\":\"Apache-2.0\"}}]}"
  done
  comps+=",{\"type\":\"application\",\"name\":\"druid\",\"version\":\"$version\",\"purl\":\"pkg:maven/cloud.gardener.druid/druid-cli@$version\",\"hashes\":[{\"alg\":\"SHA-256\",\"content\":\"$(sha256sum "$image_jar" | cut -d' ' -f1)\"}]${jar_sbom:+,\"externalReferences\":[{\"type\":\"bom\",\"url\":\"file:///opt/druid/sbom/druid-jar.cdx.json\"}]}}"
  printf '{"bomFormat":"CycloneDX","specVersion":"1.5","serialNumber":"%s","version":1,"metadata":{"timestamp":"%s","component":{"type":"container","name":"%s","version":"%s"}},"components":[%s]}\n' \
    "$serial" "$created" "$name" "$tag" "$comps" > "$1"
}

# Layer 1: base libraries, users, /tmp.
stage_base() {
  tar -xf "$base" -C "$1"
  mkdir -p "$1/etc" "$1/tmp" "$1/home/nonroot"
  chmod 1777 "$1/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$1/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$1/etc/group"
  printf 'hosts: files dns\n' > "$1/etc/nsswitch.conf"
  chown 65532:65532 "$1/home/nonroot"
}
# Layer 2: the Java runtime.
stage_jre() { mkdir -p "$1/opt"; tar -xf "$jre" -C "$1/opt"; }
# Layer 3: etcd, etcdutl of every minor; the default one's also in /usr/local/bin (links).
stage_etcd() {
  local d v
  mkdir -p "$1/usr/local/bin"
  for d in "${etcd_dirs[@]}"; do
    v=$(basename "$d")
    mkdir -p "$1/opt/etcd/$v"
    install -m 0755 "$d/etcd" "$d/etcdutl" "$1/opt/etcd/$v/"
  done
  ln -s "/opt/etcd/etcd-v${etcd_version#v}/etcd" "$1/usr/local/bin/etcd"
  ln -s "/opt/etcd/etcd-v${etcd_version#v}/etcdutl" "$1/usr/local/bin/etcdutl"
}
# Layer 4: the druid jar and the SBOMs (CycloneDX: the image's, and the jar's libraries).
stage_druid() {
  mkdir -p "$1/opt/druid/sbom"; install -m 0644 "$image_jar" "$1/opt/druid/druid.jar"
  [ -z "$jar_sbom" ] || install -m 0644 "$jar_sbom" "$1/opt/druid/sbom/druid-jar.cdx.json"
  image_sbom "$1/opt/druid/sbom/image.cdx.json"
  cp "$1/opt/druid/sbom/image.cdx.json" "$work/image.cdx.json"
}
# 4. The AOT cache, written by a training run of the staged runtime and jar (loopback only,
# etcd from step 3). The cache is bound to the jar's size and mtime and the runtime's files,
# not their paths: the staged copies get the mtimes the layers give them.
if [ -n "$aot" ]; then
  step "training the AOT cache (an agent restores, serves, snapshots and stops; about a minute)"
  train_start=$(date +%s)
  mkdir -p "$work/train"
  tar -xf "$jre" -C "$work/train"
  find "$work/train/java" -exec touch -h -d "@$layer_epoch" {} +
  install -m 0644 "$image_jar" "$work/train/druid.jar"
  touch -d "@$epoch" "$work/train/druid.jar"
  # -Xmx only so that a build machine with over 45 GiB of memory still trains with
  # compressed object pointers, as every member (heap well under 32 GiB) runs.
  TMPDIR="$work" "$here/aot-train.sh" "$work/train/java/bin/java" "$work/train/druid.jar" "$bin_dir" \
    "$work/druid.aot" "${jvm_flags[@]}" -Xmx256m
  rm -rf "$work/train"
  step "AOT cache trained in $(( $(date +%s) - train_start ))s ($(( $(stat -c %s "$work/druid.aot") / 1048576 )) MiB)"
fi
layer_key() { { sed -n "/^$1() {/,/^}/p" "$here/build.sh"; shift; sha256sum "$@" | cut -d' ' -f1; } | hashof; }
add_layer stage_base "base-$(layer_key stage_base "$base")" "$layer_epoch"
add_layer stage_jre "jre-$(layer_key stage_jre "$jre")" "$layer_epoch"
add_layer stage_etcd "etcd-$(layer_key stage_etcd "${etcd_files[@]}")" "$layer_epoch"
add_layer stage_druid "" "$epoch"
# Layer 5: the AOT cache alone, so that the layers below keep their digests from build to
# build (a training run's profiles differ every time).
stage_aot() { mkdir -p "$1/opt/druid"; install -m 0644 "$work/druid.aot" "$1$aot"; }
[ -z "$aot" ] || add_layer stage_aot "" "$epoch"

aot_history=""
[ -z "$aot" ] || aot_history=",{\"created\":\"$created\",\"created_by\":\"images/build.sh: AOT cache (training run)\"}"
json_list() { local sep="" x; printf '['; for x in "$@"; do printf '%s"%s"' "$sep" "$x"; sep=,; done; printf ']'; }
annotations=$(cat <<JSON
{"org.opencontainers.image.title":"$name","org.opencontainers.image.description":"etcd-druid for the JVM: druid operator, druid agent, etcd and etcdutl $etcd_versions (default $etcd_version)","org.opencontainers.image.version":"$version","org.opencontainers.image.revision":"$revision","org.opencontainers.image.source":"https://github.com/gardener/etcd-druid","org.opencontainers.image.licenses":"Apache-2.0","org.opencontainers.image.created":"$created","org.opencontainers.image.base.name":"debian:$suite (libc6 libgcc-s1 libstdc++6 zlib1g) + jlink $jdk_version","cloud.gardener.druid.etcd.version":"$etcd_version","cloud.gardener.druid.etcd.versions":"$etcd_versions"}
JSON
)
entrypoint=$(json_list /opt/java/bin/java "${jvm_flags[@]}" ${aot:+"-XX:AOTCache=$aot"} -jar /opt/druid/druid.jar)
config=$(cat <<JSON
{"created":"$created","architecture":"amd64","os":"linux","config":{"User":"65532:65532","Env":["PATH=/usr/local/bin:/opt/java/bin:/usr/bin:/bin","JAVA_HOME=/opt/java","DRUID_ETCD_BIN_DIR=/usr/local/bin","DRUID_ETCD_VERSIONS_DIR=/opt/etcd"],"Entrypoint":$entrypoint,"WorkingDir":"/home/nonroot","Labels":$annotations},"rootfs":{"type":"layers","diff_ids":$(json_list "${diff_ids[@]}")},"history":[{"created":"$created","created_by":"images/build.sh: debian libraries"},{"created":"$created","created_by":"images/build.sh: jlink runtime"},{"created":"$created","created_by":"images/build.sh: etcd, etcdutl"},{"created":"$created","created_by":"images/build.sh: druid.jar"}$aot_history]}
JSON
)
blob() { # stdin → blob, prints digest and size
  cat > "$work/blob"; local d; d=$(sha256sum "$work/blob" | cut -d' ' -f1)
  mv "$work/blob" "$blobs/$d"; echo "sha256:$d $(stat -c %s "$blobs/$d")"
}
read -r config_digest config_size < <(printf '%s' "$config" | blob)
layers="" sep=""
for i in "${!layer_digests[@]}"; do
  layers+="$sep{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"${layer_digests[$i]}\",\"size\":${layer_sizes[$i]}}"
  sep=,
done
manifest="{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"$config_digest\",\"size\":$config_size},\"layers\":[$layers],\"annotations\":$annotations}"
read -r manifest_digest manifest_size < <(printf '%s' "$manifest" | blob)
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"%s"}}]}' \
  "$manifest_digest" "$manifest_size" "$tag" > "$work/layout/index.json"
printf '{"imageLayoutVersion":"1.0.0"}' > "$work/layout/oci-layout"
tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --format=gnu \
  -C "$work/layout" -cf "$work/image.tar" .
mv "$work/image.tar" "$out"
printf '%s\n' "$manifest_digest" > "$out.digest"
cp "$work/image.cdx.json" "$out.cdx.json"
# Keep the three newest archives of this tag, and only the unpacked copies (node simulator)
# of archives still here.
ls -t "$cache/$name-$tag-"*.oci.tar 2>/dev/null | tail -n +4 | while read -r old; do
  rm -f "$old" "$old.digest" "$old.cdx.json"
done
ls -t "$cache"/druid-*.jar 2>/dev/null | tail -n +4 | xargs -r rm -f
if [ -d "$cache/unpacked" ]; then
  keep=$(cat "$cache"/*.oci.tar.digest 2>/dev/null | tr ':' '-')
  for u in "$cache/unpacked"/sha256-*; do
    [ -e "$u" ] || continue
    grep -qx "$(basename "$u")" <<<"$keep" || rm -rf "$u"
  done
fi
step "built $name:$tag ($manifest_digest, $(( $(stat -c %s "$out") / 1048576 )) MiB) in $(( $(date +%s) - start ))s: $out"
echo "$out" >&3
