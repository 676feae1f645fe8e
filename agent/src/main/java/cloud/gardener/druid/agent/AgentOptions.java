package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotPolicy;
import cloud.gardener.druid.agent.config.StoreConfig;
import cloud.gardener.druid.agent.config.TlsFiles;
import cloud.gardener.druid.agent.snapshot.SnapshotCompression;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.api.AgentApi;
import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.types.Quantities;
import cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy;
import io.fabric8.kubernetes.api.model.Quantity;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The command-line options of {@code druid agent}; defaults follow upstream. */
public final class AgentOptions {

  @Option(names = "--name", defaultValue = "${env:POD_NAME}",
      description = "Member (pod) name, e.g. etcd-main-0. Default: $POD_NAME.")
  String name;

  @Option(names = "--namespace", defaultValue = "${env:POD_NAMESPACE:-default}",
      description = "Namespace of the Etcd. Default: $POD_NAMESPACE.")
  String namespace;

  @Option(names = "--etcd-name", description = "Name of the Etcd resource. Default: the "
      + "member name without its ordinal suffix.")
  String etcdName;

  @Option(names = "--pod-ip", defaultValue = "${env:POD_IP:-127.0.0.1}",
      description = "Address etcd and the agent listen on. Default: $POD_IP.")
  String podIp;

  @Option(names = "--advertise-host", description = "Host name other members reach this one "
      + "by. Default: <name>.<etcd>-peer.<namespace>.svc.")
  String advertiseHost;

  @Option(names = "--replicas", defaultValue = "1", description = "Members of the cluster.")
  int replicas;

  @Option(names = "--initial-cluster", description = "name=peerURL,... overriding the "
      + "members derived from --replicas and the peer service DNS names.")
  String initialCluster;

  @Option(names = "--client-port", defaultValue = "2379")
  int clientPort;

  @Option(names = "--peer-port", defaultValue = "2380")
  int peerPort;

  @Option(names = "--server-port", defaultValue = "8080", description = "Agent HTTP API port.")
  int serverPort;

  @Option(names = "--cluster-token", description = "Default: <namespace>-<etcd>.")
  String clusterToken;

  @Option(names = "--data-dir", defaultValue = "/var/etcd/data/new.etcd")
  Path dataDir;

  @Option(names = "--etcd-bin-dir", defaultValue = "${env:DRUID_ETCD_BIN_DIR:-/usr/local/bin}",
      description = "Directory holding the etcd and etcdutl binaries. Default:"
          + " $DRUID_ETCD_BIN_DIR, else /usr/local/bin.")
  Path etcdBinDir;

  @Option(names = "--quota-backend-bytes", defaultValue = "8Gi")
  String quota;

  @Option(names = "--snapshot-count", defaultValue = "75000")
  long snapshotCount;

  @Option(names = "--heartbeat-interval", defaultValue = "100ms")
  String heartbeat;

  @Option(names = "--election-timeout", defaultValue = "1s")
  String electionTimeout;

  @Option(names = "--auto-compaction-mode", description = "periodic or revision")
  String autoCompactionMode;

  @Option(names = "--auto-compaction-retention")
  String autoCompactionRetention;

  @Option(names = "--client-tls-dir", description = "Directory with ca.crt, tls.crt, tls.key "
      + "for etcd's client URLs (also used by the agent to connect).")
  Path clientTlsDir;

  @Option(names = "--peer-tls-dir", description = "Directory with ca.crt, tls.crt, tls.key "
      + "for etcd's peer URLs.")
  Path peerTlsDir;

  @Option(names = "--peer-skip-client-san-verification", description = "Accept peer client "
      + "certificates whose SANs do not name the connecting address.")
  boolean peerSkipClientSanVerification;

  @Option(names = "--server-tls-dir", description = "Directory with tls.crt, tls.key and "
      + "ca.crt (the CA bundle of the callers' certificates) for the agent's HTTP API; "
      + "re-read when the files change. Required unless --insecure-api.")
  Path serverTlsDir;

  @Option(names = "--api-client-name", description = "Common name a caller's client "
      + "certificate must have on every path but /healthz, /readyz and /metrics "
      + "(default: ${DEFAULT-VALUE}).")
  String apiClientName = AgentApi.OPERATOR_CLIENT_NAME;

  @Option(names = "--insecure-api", description = "Serve the agent API over plain HTTP to "
      + "every caller (tests only; refused together with --server-tls-dir).")
  boolean insecureApi;

  @Option(names = "--store-provider", description = "Local or S3; no backups when absent.")
  StoreConfig.Provider storeProvider;

  @Option(names = "--store-container", description = "Bucket (S3) or directory (Local).")
  String storeContainer;

  @Option(names = "--store-prefix", description = "Default: <namespace>--<etcd>.")
  String storePrefix;

  @Option(names = "--store-endpoint-override")
  URI storeEndpointOverride;

  @Option(names = "--store-secret-dir", description = "The store secret's keys as files "
      + "(accessKeyID, secretAccessKey, region, endpoint).")
  Path storeSecretDir;

  @Option(names = "--full-snapshot-schedule", defaultValue = "0 */1 * * *")
  String fullSchedule;

  @Option(names = "--delta-snapshot-period", defaultValue = "20s")
  String deltaPeriod;

  @Option(names = "--delta-snapshot-memory-limit", defaultValue = "10Mi")
  String deltaMemoryLimit;

  @Option(names = "--compress-snapshots", defaultValue = "true", arity = "1")
  boolean compress;

  @Option(names = "--compression-policy", defaultValue = "gzip", description = "gzip or zlib "
      + "(spec.backup.compression.policy). Snapshots of every upstream policy are read, lzw "
      + "too, but lzw is not written: it is refused at startup.")
  String compressionPolicy;

  @Option(names = "--compression-level", defaultValue = "1", description = "Deflate level "
      + "of compressed snapshots, 0 (stored) to 9 (smallest); 1 is the fastest that "
      + "compresses. Compression runs on every available processor.")
  int compressionLevel;

  @Option(names = "--garbage-collection-policy", defaultValue = "LimitBased")
  GarbageCollectionPolicy gcPolicy;

  @Option(names = "--max-backups", defaultValue = "7")
  int maxBackups;

  @Option(names = "--garbage-collection-period", defaultValue = "1m")
  String gcPeriod;

  @Option(names = "--delta-snapshot-retention-period", defaultValue = "0s",
      description = "How long delta snapshots before the newest full snapshot are kept "
          + "(Go duration, e.g. 1h); those after it are always kept. Default: 0s, deleted at "
          + "the next garbage collection.")
  String deltaRetention;

  @Option(names = "--defragmentation-schedule", defaultValue = "0 0 */3 * *")
  String defragSchedule;

  @Option(names = "--init-retry-period", defaultValue = "10s",
      description = "Wait between failed initialisation attempts.")
  String initRetryPeriod;

  @Option(names = "--leases", description = "Renew member and snapshot leases. Default: when "
      + "running in Kubernetes (KUBERNETES_SERVICE_HOST set).")
  Boolean leases;

  AgentConfig toConfig() {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("--name (or $POD_NAME) is required");
    }
    String etcd = etcdName != null ? etcdName : name.replaceFirst("-\\d+$", "");
    String host = advertiseHost != null ? advertiseHost
        : name + "." + etcd + "-peer." + namespace + ".svc";
    Optional<TlsFiles> clientTls = tls(clientTlsDir, true);
    Optional<TlsFiles> peerTls = tls(peerTlsDir, true);
    MemberConfig member = new MemberConfig(name, etcd, namespace, podIp, host, clientPort,
        peerPort, cluster(etcd, peerTls.isPresent()),
        clusterToken != null ? clusterToken : namespace + "-" + etcd, dataDir, clientTls,
        peerTls, peerSkipClientSanVerification);
    EtcdTuning tuning = new EtcdTuning(etcdBinDir, bytes(quota), snapshotCount,
        (int) GoDuration.parse(heartbeat).toDuration().toMillis(),
        (int) GoDuration.parse(electionTimeout).toDuration().toMillis(),
        Optional.ofNullable(autoCompactionMode), Optional.ofNullable(autoCompactionRetention));
    SnapshotPolicy policy = new SnapshotPolicy(CronSchedule.parse(fullSchedule),
        GoDuration.parse(deltaPeriod).toDuration(), bytes(deltaMemoryLimit), compression(),
        gcPolicy, maxBackups, GoDuration.parse(gcPeriod).toDuration(), deltaRetention());
    return new AgentConfig(member, tuning, store(etcd), policy, CronSchedule.parse(defragSchedule),
        podIp, serverPort, tls(serverTlsDir, true), apiCaller(),
        GoDuration.parse(initRetryPeriod).toDuration(),
        leases != null ? leases : System.getenv("KUBERNETES_SERVICE_HOST") != null);
  }

  /** Who may call the agent API: the agent never serves it unauthenticated by accident. */
  private Optional<String> apiCaller() {
    if (insecureApi && serverTlsDir != null) {
      throw new IllegalArgumentException("--insecure-api and --server-tls-dir exclude each"
          + " other");
    }
    if (insecureApi) {
      return Optional.empty();
    }
    if (serverTlsDir == null) {
      throw new IllegalArgumentException("--server-tls-dir is required: the agent API"
          + " authenticates its callers by client certificate (--insecure-api for tests)");
    }
    if (apiClientName == null || apiClientName.isBlank()) {
      throw new IllegalArgumentException("--api-client-name must not be empty");
    }
    return Optional.of(apiClientName);
  }

  private Duration deltaRetention() {
    Duration period = GoDuration.parse(deltaRetention).toDuration();
    if (period.isNegative()) {
      throw new IllegalArgumentException("--delta-snapshot-retention-period must not be "
          + "negative: " + deltaRetention);
    }
    return period;
  }

  private SnapshotCompression compression() {
    if (compressionLevel < 0 || compressionLevel > 9) {
      throw new IllegalArgumentException("--compression-level must be 0..9, not "
          + compressionLevel);
    }
    if (!compress) {
      return SnapshotCompression.NONE;
    }
    return switch (compressionPolicy) {
      case "gzip" -> SnapshotCompression.of(Compression.GZIP, compressionLevel);
      case "zlib" -> SnapshotCompression.of(Compression.ZLIB, compressionLevel);
      case "lzw" -> throw new IllegalArgumentException("--compression-policy=lzw: this agent "
          + "restores lzw snapshots but does not write them; use gzip or zlib");
      default -> throw new IllegalArgumentException("--compression-policy must be gzip, zlib "
          + "or lzw, not " + compressionPolicy);
    };
  }

  private Map<String, URI> cluster(String etcd, boolean peerTls) {
    Map<String, URI> cluster = new LinkedHashMap<>();
    if (initialCluster != null) {
      for (String entry : initialCluster.split(",")) {
        String[] parts = entry.split("=", 2);
        cluster.put(parts[0].trim(), URI.create(parts[1].trim()));
      }
      return cluster;
    }
    String scheme = peerTls ? "https" : "http";
    for (int i = 0; i < replicas; i++) {
      String member = etcd + "-" + i;
      cluster.put(member, URI.create(scheme + "://" + member + "." + etcd + "-peer." + namespace
          + ".svc:" + peerPort));
    }
    return cluster;
  }

  private Optional<StoreConfig> store(String etcd) {
    if (storeProvider == null) {
      return Optional.empty();
    }
    return Optional.of(new StoreConfig(storeProvider,
        storeContainer != null ? storeContainer : "/var/etcd/backup",
        storePrefix != null ? storePrefix : namespace + "--" + etcd,
        Optional.ofNullable(storeEndpointOverride), Optional.ofNullable(storeSecretDir)));
  }

  private static Optional<TlsFiles> tls(Path dir, boolean caRequired) {
    if (dir == null) {
      return Optional.empty();
    }
    Path ca = dir.resolve("ca.crt");
    boolean hasCa = caRequired || java.nio.file.Files.exists(ca);
    return Optional.of(new TlsFiles(hasCa ? ca : null, dir.resolve("tls.crt"),
        dir.resolve("tls.key")));
  }

  private static long bytes(String quantity) {
    return Quantities.bytesLong(new Quantity(quantity));
  }

}
