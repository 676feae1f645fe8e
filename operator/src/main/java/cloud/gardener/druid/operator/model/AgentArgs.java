package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.types.Quantities;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember;
import cloud.gardener.druid.api.v1alpha1.BootstrapWithExistingCluster;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import cloud.gardener.druid.api.v1alpha1.SharedConfig;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The arguments of {@code druid agent} in a member container. The agent learns its own pod
 * from the downward API (POD_NAME, POD_NAMESPACE, POD_IP); everything cluster-wide comes from
 * these arguments. They are part of the member revision, except the bootstrap member count
 * ({@link #bootstrapReplicas}), which only matters when a cluster is first formed.
 */
public final class AgentArgs {

  private AgentArgs() {
  }

  /** The argument telling a new member how many members the cluster is formed with. */
  public static String bootstrapReplicas(int replicas) {
    return "--replicas=" + replicas;
  }

  /** The argument naming the etcd version a member runs. */
  public static final String ETCD_VERSION = "--etcd-version=";

  /** The etcd a member's arguments run; an argument list without one runs the image default. */
  public static EtcdRelease etcdRelease(List<String> args) {
    return args.stream().filter(a -> a.startsWith(ETCD_VERSION)).findFirst()
        .flatMap(a -> EtcdRelease.of(a.substring(ETCD_VERSION.length())))
        .orElse(EtcdRelease.DEFAULT);
  }

  public static final String QUOTA = "--quota-backend-bytes=";

  /** The space quota member arguments give etcd, if they name one. */
  public static Optional<Long> quotaBytes(List<String> args) {
    return args.stream().filter(a -> a.startsWith(QUOTA)).findFirst().flatMap(a -> {
      try {
        return Optional.of(Long.parseLong(a.substring(QUOTA.length())));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    });
  }

  /** Whether member arguments run etcd with peer TLS. */
  public static boolean peerTls(List<String> args) {
    return args.stream().anyMatch(a -> a.startsWith("--peer-tls-dir="));
  }

  /**
   * With the operator's period of etcd's corruption check, only when not the default: the
   * arguments, so the member revision, of every member stay those of releases before it.
   */
  public static List<String> build(Etcd etcd, OperatorSettings settings) {
    if (settings.corruptCheckPeriod().equals(OperatorSettings.CORRUPT_CHECK_PERIOD)) {
      return build(etcd);
    }
    List<String> args = new ArrayList<>(build(etcd));
    add(args, "corrupt-check-period", settings.corruptCheckPeriod().toMillis() + "ms");
    return List.copyOf(args);
  }

  public static List<String> build(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    EtcdConfig ec = EtcdDefaults.etcd(etcd);
    BackupSpec backup = EtcdDefaults.backup(etcd);
    List<String> args = new ArrayList<>();
    args.add("agent");
    add(args, "etcd-name", names.etcd());
    add(args, "client-port", EtcdDefaults.clientPort(etcd));
    add(args, "peer-port", EtcdDefaults.peerPort(etcd));
    add(args, "server-port", EtcdDefaults.agentPort(etcd));
    add(args, "data-dir", MemberLayout.ETCD_DATA_DIR);
    add(args, "etcd-version", EtcdDefaults.etcdRelease(etcd).version());
    add(args, "quota-backend-bytes", EtcdDefaults.quotaBytes(etcd));
    add(args, "snapshot-count",
        Optional.ofNullable(ec.getSnapshotCount()).orElse(EtcdDefaults.SNAPSHOT_COUNT));
    SharedConfig shared = etcd.getSpec().getSharedConfig();
    if (shared != null && shared.getAutoCompactionMode() != null) {
      add(args, "auto-compaction-mode", shared.getAutoCompactionMode().name().toLowerCase());
    }
    if (shared != null && shared.getAutoCompactionRetention() != null) {
      add(args, "auto-compaction-retention", shared.getAutoCompactionRetention());
    }
    if (ec.getMetrics() != null) {
      add(args, "etcd-metrics", ec.getMetrics().name().toLowerCase(Locale.ROOT));
    }
    add(args, "backend-bbolt-freelist-type", EtcdDefaults.freelistType(etcd));
    if (EtcdDefaults.clientTls(etcd)) {
      add(args, "client-tls-dir", MemberLayout.CLIENT_TLS_DIR);
    }
    if (EtcdDefaults.peerTls(etcd)) {
      add(args, "peer-tls-dir", MemberLayout.PEER_TLS_DIR);
      if (Boolean.TRUE.equals(ec.getPeerUrlTls().getSkipClientSANVerification())) {
        add(args, "peer-skip-client-san-verification", true);
      }
    }
    if (ec.getAuthSecretRef() != null) {
      add(args, "etcd-auth-dir", MemberLayout.ETCD_AUTH_DIR);
    }
    add(args, "server-tls-dir", MemberLayout.AGENT_TLS_DIR); // always: the API authenticates
    timings(args, ec, backup);
    if (backup.getStore() != null) {
      store(args, backup);
    }
    add(args, "defragmentation-schedule", text(ec.getDefragmentationSchedule(),
        EtcdDefaults.DEFRAGMENTATION_SCHEDULE));
    if (ec.getAdditionalAdvertisePeerURLs() != null
        && !ec.getAdditionalAdvertisePeerURLs().isEmpty()) {
      List<String> extra = new ArrayList<>();
      ec.getAdditionalAdvertisePeerURLs().forEach(m ->
          m.getUrls().forEach(u -> extra.add(m.getMemberName() + "=" + u)));
      add(args, "additional-advertise-peer-urls", String.join(",", extra));
    }
    return List.copyOf(args);
  }

  /**
   * While the Etcd joins an existing cluster: the running cluster its members join (upstream
   * appends its members to the initial cluster and its endpoints to backup-restore's service
   * endpoints; our agent takes both as options). Like {@link #bootstrapReplicas} not part of
   * the member revision: it matters only to a member without data, and a member started
   * after the join (a restart, a recovery from the store) no longer joins the source.
   */
  public static List<String> existingCluster(Etcd etcd) {
    BootstrapWithExistingCluster join = EtcdDefaults.etcd(etcd).getBootstrapWithExistingCluster();
    if (join == null || !ExistingClusterJoin.joining(etcd)) {
      return List.of();
    }
    List<String> members = new ArrayList<>();
    for (BootstrapExistingMember m : join.getMembers()) {
      m.getPeerUrls().forEach(u -> members.add(m.getName() + "=" + u));
    }
    List<String> args = new ArrayList<>();
    add(args, "existing-cluster-members", String.join(",", members));
    add(args, "existing-cluster-endpoints", String.join(",", join.getClientEndpoints()));
    return List.copyOf(args);
  }

  /** Upstream's timeouts and periods, under etcd-backup-restore's flag names; only when set. */
  private static void timings(List<String> args, EtcdConfig ec, BackupSpec backup) {
    addIfSet(args, "etcd-snapshot-timeout", backup.getEtcdSnapshotTimeout());
    addIfSet(args, "etcd-defrag-timeout", ec.getEtcdDefragTimeout());
    addIfSet(args, "k8s-heartbeat-duration", ec.getHeartbeatDuration());
    if (backup.getLeaderElection() != null) {
      addIfSet(args, "reelection-period", backup.getLeaderElection().getReelectionPeriod());
      addIfSet(args, "etcd-connection-timeout-leader-election",
          backup.getLeaderElection().getEtcdConnectionTimeout());
    }
  }

  private static void addIfSet(List<String> args, String name, Object value) {
    if (value != null) {
      add(args, name, value);
    }
  }

  private static void store(List<String> args, BackupSpec backup) {
    StoreSpec store = backup.getStore();
    boolean local = LocalStore.isLocal(store);
    add(args, "store-provider", StoreProviders.agentProvider(store));
    add(args, "store-container", local ? MemberLayout.LOCAL_STORE_DIR : store.getContainer());
    add(args, "store-prefix", store.getPrefix());
    if (store.getEndpointOverride() != null) {
      add(args, "store-endpoint-override", store.getEndpointOverride());
    }
    if (store.getSecretRef() != null) {
      add(args, "store-secret-dir", MemberLayout.STORE_SECRET_DIR);
    }
    add(args, "full-snapshot-schedule", text(backup.getFullSnapshotSchedule(),
        EtcdDefaults.FULL_SNAPSHOT_SCHEDULE));
    add(args, "delta-snapshot-period", text(backup.getDeltaSnapshotPeriod(),
        EtcdDefaults.DELTA_SNAPSHOT_PERIOD));
    add(args, "delta-snapshot-memory-limit", text(backup.getDeltaSnapshotMemoryLimit(),
        EtcdDefaults.DELTA_SNAPSHOT_MEMORY_LIMIT));
    add(args, "garbage-collection-policy", backup.getGarbageCollectionPolicy() == null
        ? EtcdDefaults.GARBAGE_COLLECTION_POLICY : backup.getGarbageCollectionPolicy().name());
    add(args, "garbage-collection-period", text(backup.getGarbageCollectionPeriod(),
        EtcdDefaults.GARBAGE_COLLECTION_PERIOD));
    add(args, "max-backups", Optional.ofNullable(backup.getMaxBackupsLimitBasedGC())
        .orElse(EtcdDefaults.MAX_BACKUPS));
    var compression = backup.getCompression();
    boolean compress = compression == null || compression.getEnabled() == null
        ? EtcdDefaults.COMPRESS_SNAPSHOTS : compression.getEnabled();
    add(args, "compress-snapshots", compress);
    if (compress) {
      add(args, "compression-policy", compression == null || compression.getPolicy() == null
          ? EtcdDefaults.COMPRESSION_POLICY
          : compression.getPolicy().name().toLowerCase(Locale.ROOT));
    }
    if (backup.getDeltaSnapshotRetentionPeriod() != null) {
      add(args, "delta-snapshot-retention-period", backup.getDeltaSnapshotRetentionPeriod());
    }
  }

  private static String text(Object value, String fallback) {
    return value == null ? fallback : value.toString();
  }

  private static void add(List<String> args, String name, Object value) {
    args.add("--" + name + "=" + value);
  }
}
