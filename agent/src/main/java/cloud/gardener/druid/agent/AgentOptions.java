package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.config.AgentTimings;
import cloud.gardener.druid.agent.config.EtcdBinDirOption;
import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.AdditionalPeerUrlsOption;
import cloud.gardener.druid.agent.config.ExistingClusterOptions;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.config.SnapshotPolicy;
import cloud.gardener.druid.agent.config.StoreOptions;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.agent.tls.EtcdCredentials;
import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.api.agent.AgentApi;
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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The command-line options of {@code druid agent}; defaults follow upstream. */
public final class AgentOptions {

  @Option(names = "--name", paramLabel = "MEMBER", defaultValue = "${env:POD_NAME}",
      description = "Member (pod) name, e.g. etcd-main-0. Default: $POD_NAME.")
  String name;

  @Option(names = "--namespace", paramLabel = "NAMESPACE",
      defaultValue = "${env:POD_NAMESPACE:-default}",
      description = "Namespace of the Etcd. Default: $POD_NAMESPACE, else default.")
  String namespace;

  @Option(names = "--etcd-name", paramLabel = "ETCD", description = "Name of the Etcd resource."
      + " Default: the member name without its ordinal suffix.")
  String etcdName;

  @Option(names = "--pod-ip", paramLabel = "IP", defaultValue = "${env:POD_IP:-127.0.0.1}",
      description = "Address etcd and the agent listen on. Default: $POD_IP, else 127.0.0.1.")
  String podIp;

  @Option(names = "--advertise-host", paramLabel = "HOST", description = "Host name other"
      + " members reach this one by. Default: <name>.<etcd>-peer.<namespace>.svc.")
  String advertiseHost;

  @Option(names = "--replicas", paramLabel = "COUNT", defaultValue = "1",
      description = "Members of the cluster (default: ${DEFAULT-VALUE}).")
  int replicas;

  @Option(names = "--initial-cluster", paramLabel = "NAME=PEER_URL[,...]",
      description = "The initial members, overriding those derived from --replicas and the"
          + " peer service DNS names.")
  String initialCluster;

  @Option(names = "--client-port", paramLabel = "PORT", defaultValue = "2379",
      description = "etcd's client port (default: ${DEFAULT-VALUE}).")
  int clientPort;

  @Option(names = "--peer-port", paramLabel = "PORT", defaultValue = "2380",
      description = "etcd's peer port (default: ${DEFAULT-VALUE}).")
  int peerPort;

  @Option(names = "--server-port", paramLabel = "PORT", defaultValue = "8080",
      description = "Port of the agent's HTTP API (default: ${DEFAULT-VALUE}).")
  int serverPort;

  @Option(names = "--cluster-token", paramLabel = "TOKEN", description = "etcd's initial"
      + " cluster token. Default: <namespace>-<etcd>.")
  String clusterToken;

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "/var/etcd/data/new.etcd",
      description = "etcd's data directory (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Mixin
  EtcdBinDirOption etcdBinDir = new EtcdBinDirOption();

  @Option(names = "--quota-backend-bytes", paramLabel = "QUANTITY", defaultValue = "8Gi",
      description = "etcd's backend quota, a quantity such as 8Gi (default: ${DEFAULT-VALUE}).")
  String quota;

  @Option(names = "--snapshot-count", paramLabel = "COUNT", defaultValue = "10000",
      description = "Committed transactions between etcd's own raft snapshots (default:"
          + " ${DEFAULT-VALUE}).")
  long snapshotCount;

  @Option(names = "--heartbeat-interval", paramLabel = "DURATION", defaultValue = "100ms",
      description = "etcd's heartbeat interval (default: ${DEFAULT-VALUE}).")
  String heartbeat;

  @Option(names = "--election-timeout", paramLabel = "DURATION", defaultValue = "1s",
      description = "etcd's election timeout (default: ${DEFAULT-VALUE}).")
  String electionTimeout;

  @Option(names = "--auto-compaction-mode", paramLabel = "periodic|revision",
      description = "etcd's auto-compaction mode. Default: etcd's (off).")
  String autoCompactionMode;

  @Option(names = "--auto-compaction-retention", paramLabel = "RETENTION",
      description = "etcd's auto-compaction retention: a duration (periodic) or a revision"
          + " count (revision). Default: etcd's.")
  String autoCompactionRetention;

  @Option(names = "--etcd-metrics", paramLabel = "basic|extensive",
      description = "etcd's --metrics level. Default: etcd's (basic).")
  String etcdMetrics;

  @Option(names = "--backend-bbolt-freelist-type", paramLabel = "map|array",
      defaultValue = "array", description = "etcd's bbolt freelist type (default:"
          + " ${DEFAULT-VALUE}, as upstream etcd-druid; etcd's own is map).")
  String freelistType;

  @Option(names = "--corrupt-check-period", paramLabel = "DURATION", defaultValue = "1h",
      description = "How often the leader's etcd hashes every member's key space and raises"
          + " the CORRUPT alarm on a member that differs (etcd's periodic corruption check;"
          + " default: ${DEFAULT-VALUE}). Shorter in tests; each check reads the whole"
          + " database on every member (docs/benchmarks.md).")
  String corruptCheckPeriod;

  @Option(names = "--client-tls-dir", paramLabel = "DIR", description = "Directory with"
      + " ca.crt, tls.crt, tls.key for etcd's client URLs (also used by the agent to"
      + " connect). Default: plain HTTP.")
  Path clientTlsDir;

  @Option(names = "--etcd-auth-dir", paramLabel = "DIR", description = "Directory with the"
      + " files username and password of the etcd user the agent authenticates as (etcd"
      + " authentication; upstream's --etcd-username/--etcd-password as files). Re-read when"
      + " etcd refuses a token. Default: no etcd user.")
  Path etcdAuthDir;

  @Option(names = "--peer-tls-dir", paramLabel = "DIR", description = "Directory with ca.crt,"
      + " tls.crt, tls.key for etcd's peer URLs. Default: plain HTTP.")
  Path peerTlsDir;

  @Option(names = "--peer-skip-client-san-verification", description = "Accept peer client "
      + "certificates whose SANs do not name the connecting address.")
  boolean peerSkipClientSanVerification;

  @Option(names = "--server-tls-dir", paramLabel = "DIR", description = "Directory with tls.crt, tls.key and "
      + "ca.crt (the CA bundle of the callers' certificates) for the agent's HTTP API; "
      + "re-read when the files change. Required unless --insecure-api.")
  Path serverTlsDir;

  @Option(names = "--api-client-name", paramLabel = "NAME", description = "Common name a caller's client "
      + "certificate must have on every path but /healthz, /readyz and /metrics "
      + "(default: ${DEFAULT-VALUE}).")
  String apiClientName = AgentApi.OPERATOR_CLIENT_NAME;

  @Option(names = "--insecure-api", description = "Serve the agent API over plain HTTP to "
      + "every caller (tests only; refused together with --server-tls-dir).")
  boolean insecureApi;

  @Mixin
  ExistingClusterOptions existing = new ExistingClusterOptions();

  @Mixin
  AdditionalPeerUrlsOption additionalPeerUrls = new AdditionalPeerUrlsOption();

  @Mixin
  StoreOptions store = new StoreOptions();

  @Option(names = "--full-snapshot-schedule", paramLabel = "CRON", defaultValue = "0 */1 * * *",
      description = "Cron schedule of full snapshots (default: ${DEFAULT-VALUE}).")
  String fullSchedule;

  @Option(names = "--delta-snapshot-period", paramLabel = "DURATION", defaultValue = "20s",
      description = "Period of delta snapshots (default: ${DEFAULT-VALUE}).")
  String deltaPeriod;

  @Option(names = "--delta-snapshot-memory-limit", paramLabel = "QUANTITY",
      defaultValue = "10Mi", description = "Buffered events that trigger a delta snapshot"
          + " before its period (default: ${DEFAULT-VALUE}).")
  String deltaMemoryLimit;

  @Option(names = "--compress-snapshots", paramLabel = "true|false", defaultValue = "true",
      arity = "1", description = "Compress snapshots (default: ${DEFAULT-VALUE}).")
  boolean compress;

  @Option(names = "--compression-policy", paramLabel = "gzip|zlib", defaultValue = "gzip",
      description = "spec.backup.compression.policy (default: ${DEFAULT-VALUE}). Snapshots of"
          + " every upstream policy are read, lzw too, but lzw is not written: it is refused at"
          + " startup.")
  String compressionPolicy;

  @Option(names = "--compression-level", paramLabel = "0-9", defaultValue = "1",
      description = "Deflate level of compressed snapshots, 0 (stored) to 9 (smallest); 1 is"
          + " the fastest that compresses. Compression runs on every available processor"
          + " (default: ${DEFAULT-VALUE}).")
  int compressionLevel;

  @Option(names = "--garbage-collection-policy", paramLabel = "LimitBased|Exponential",
      defaultValue = "LimitBased",
      description = "Which backups garbage collection keeps (default: ${DEFAULT-VALUE}).")
  GarbageCollectionPolicy gcPolicy;

  @Option(names = "--max-backups", paramLabel = "COUNT", defaultValue = "7",
      description = "Backups (full snapshots with their deltas) kept by LimitBased garbage"
          + " collection (default: ${DEFAULT-VALUE}).")
  int maxBackups;

  @Option(names = "--garbage-collection-period", paramLabel = "DURATION", defaultValue = "1m",
      description = "Period of garbage collection (default: ${DEFAULT-VALUE}).")
  String gcPeriod;

  @Option(names = "--delta-snapshot-retention-period", paramLabel = "DURATION",
      defaultValue = "0s",
      description = "How long delta snapshots before the newest full snapshot are kept "
          + "(Go duration, e.g. 1h); those after it are always kept. Default: 0s, deleted at "
          + "the next garbage collection.")
  String deltaRetention;

  @Option(names = "--defragmentation-schedule", paramLabel = "CRON",
      defaultValue = "0 0 */3 * *",
      description = "Cron schedule of this member's defragmentation (default:"
          + " ${DEFAULT-VALUE}).")
  String defragSchedule;

  @Option(names = "--init-retry-period", paramLabel = "DURATION", defaultValue = "10s",
      description = "Wait between failed initialisation attempts (default: ${DEFAULT-VALUE}).")
  String initRetryPeriod;

  @Option(names = "--etcd-snapshot-timeout", paramLabel = "DURATION", defaultValue = "15m",
      description = "A full snapshot is given up after this long (spec.backup."
          + "etcdSnapshotTimeout; default: ${DEFAULT-VALUE}, as upstream).")
  String snapshotTimeout;

  @Option(names = "--etcd-defrag-timeout", paramLabel = "DURATION", defaultValue = "15m",
      description = "A member's defragmentation is given up after this long (spec.etcd."
          + "etcdDefragTimeout; default: ${DEFAULT-VALUE}, as upstream).")
  String defragTimeout;

  @Option(names = "--k8s-heartbeat-duration", paramLabel = "DURATION", defaultValue = "10s",
      description = "Period of the member lease renewal (spec.etcd.heartbeatDuration;"
          + " default: ${DEFAULT-VALUE}, as upstream).")
  String heartbeatDuration;

  @Option(names = "--reelection-period", paramLabel = "DURATION", defaultValue = "1s",
      description = "How often the agent asks etcd whether its member leads and so takes the"
          + " snapshots (spec.backup.leaderElection.reelectionPeriod; default:"
          + " ${DEFAULT-VALUE}).")
  String reelectionPeriod;

  @Option(names = "--etcd-connection-timeout-leader-election", paramLabel = "DURATION",
      defaultValue = "10s", description = "How long that question may take (spec.backup."
          + "leaderElection.etcdConnectionTimeout; default: ${DEFAULT-VALUE}).")
  String leaderCheckTimeout;

  @Option(names = "--leases", description = "Renew member and snapshot leases. Default: when running in Kubernetes"
          + " (KUBERNETES_SERVICE_HOST set).")
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
        peerTls, peerSkipClientSanVerification).withExistingCluster(existing.existingCluster())
        .withAdditionalPeerUrls(additionalPeerUrls.forMember(name))
        .withEtcdCredentials(Optional.ofNullable(etcdAuthDir).map(EtcdCredentials::in));
    EtcdTuning tuning = new EtcdTuning(etcdBinDir.dir(), bytes(quota), snapshotCount,
        (int) GoDuration.parse(heartbeat).toDuration().toMillis(),
        (int) GoDuration.parse(electionTimeout).toDuration().toMillis(),
        Optional.ofNullable(autoCompactionMode), Optional.ofNullable(autoCompactionRetention),
        oneOf("--etcd-metrics", etcdMetrics, "basic", "extensive"),
        oneOf("--backend-bbolt-freelist-type", freelistType, "map", "array"),
        positive("--corrupt-check-period", corruptCheckPeriod));
    SnapshotPolicy policy = new SnapshotPolicy(CronSchedule.parse(fullSchedule),
        GoDuration.parse(deltaPeriod).toDuration(), bytes(deltaMemoryLimit), compression(),
        gcPolicy, maxBackups, GoDuration.parse(gcPeriod).toDuration(), deltaRetention());
    return new AgentConfig(member, tuning, store(etcd), policy, CronSchedule.parse(defragSchedule),
        podIp, serverPort, tls(serverTlsDir, true), apiCaller(),
        GoDuration.parse(initRetryPeriod).toDuration(),
        leases != null ? leases : System.getenv("KUBERNETES_SERVICE_HOST") != null,
        timings());
  }

  private AgentTimings timings() {
    return new AgentTimings(positive("--etcd-snapshot-timeout", snapshotTimeout),
        positive("--etcd-defrag-timeout", defragTimeout),
        positive("--k8s-heartbeat-duration", heartbeatDuration),
        positive("--reelection-period", reelectionPeriod),
        positive("--etcd-connection-timeout-leader-election", leaderCheckTimeout));
  }

  private static Duration positive(String option, String value) {
    Duration d = GoDuration.parse(value).toDuration();
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(option + " must be positive, not " + value);
    }
    return d;
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
    return store.store("/var/etcd/backup", namespace + "--" + etcd);
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


  private static Optional<String> oneOf(String option, String value, String... allowed) {
    if (value != null && !java.util.List.of(allowed).contains(value)) {
      throw new IllegalArgumentException(option + " must be one of "
          + String.join(", ", allowed) + ", not " + value);
    }
    return Optional.ofNullable(value);
  }
}
