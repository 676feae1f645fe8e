package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.types.Quantities;
import cloud.gardener.druid.api.v1alpha1.CapacitySpec;
import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Optional;

/** The upstream defaults, applied when a field is absent (never written back to the spec). */
public final class EtcdDefaults {

  /** The repository name of this operator's image, whatever the registry. */
  public static final String MEMBER_IMAGE_NAME = "etcd-druid-jvm";
  public static final int CLIENT_PORT = 2379;
  public static final int PEER_PORT = 2380;
  public static final int AGENT_PORT = 8080;
  public static final String STORAGE_CAPACITY = "16Gi";
  public static final String QUOTA = "8Gi";
  /** Upstream since #1166 (was 75,000). */
  public static final long SNAPSHOT_COUNT = 10_000;
  /** Upstream since #1374: more space-efficient than etcd's own default, {@code map}. */
  public static final String BBOLT_FREELIST_TYPE = "array";
  /** Upstream since #1202: snapshots are compressed unless the spec says otherwise. */
  public static final boolean COMPRESS_SNAPSHOTS = true;
  public static final String COMPRESSION_POLICY = "gzip";
  /** Upstream's default when {@code spec.backup.garbageCollectionPolicy} is absent. */
  public static final String GARBAGE_COLLECTION_POLICY = "LimitBased";
  public static final String FULL_SNAPSHOT_SCHEDULE = "0 */1 * * *";
  public static final String DEFRAGMENTATION_SCHEDULE = "0 0 */3 * *";
  public static final String DELTA_SNAPSHOT_PERIOD = "20s";
  public static final String DELTA_SNAPSHOT_MEMORY_LIMIT = "10Mi";
  public static final String GARBAGE_COLLECTION_PERIOD = "1m";
  public static final int MAX_BACKUPS = 7;

  private EtcdDefaults() {
  }

  static EtcdConfig etcd(Etcd etcd) {
    return Optional.ofNullable(etcd.getSpec().getEtcd()).orElseGet(EtcdConfig::new);
  }

  static BackupSpec backup(Etcd etcd) {
    return Optional.ofNullable(etcd.getSpec().getBackup()).orElseGet(BackupSpec::new);
  }

  public static int clientPort(Etcd etcd) {
    return Optional.ofNullable(etcd(etcd).getClientPort()).orElse(CLIENT_PORT);
  }

  public static int peerPort(Etcd etcd) {
    return Optional.ofNullable(etcd(etcd).getServerPort()).orElse(PEER_PORT);
  }

  public static int agentPort(Etcd etcd) {
    return Optional.ofNullable(backup(etcd).getPort()).orElse(AGENT_PORT);
  }

  /**
   * The volume size the members get: spec.storageCapacity, or the size the capacity flow grew
   * it to for a raised quota (status.capacity.grownStorage) when that is larger: a volume
   * never shrinks back (that would be a replacement).
   */
  public static Quantity storageCapacity(Etcd etcd) {
    Quantity spec = Optional.ofNullable(etcd.getSpec().getStorageCapacity())
        .orElseGet(() -> new Quantity(STORAGE_CAPACITY));
    return capacityStatus(etcd).map(CapacityStatus::getGrownStorage)
        .filter(g -> Quantities.bytes(g).compareTo(Quantities.bytes(spec)) > 0).orElse(spec);
  }

  /** spec.etcd.quota as written, or etcd-druid's default (8Gi). */
  public static long specQuotaBytes(Etcd etcd) {
    return Quantities.bytesLong(Optional.ofNullable(etcd(etcd).getQuota())
        .orElseGet(() -> new Quantity(QUOTA)));
  }

  /**
   * The quota the members run with: spec.etcd.quota, or the quota the capacity flow raised it
   * to (status.capacity.raisedQuota), at most spec.etcd.capacity.maxQuota when that is set,
   * never below spec.etcd.quota.
   */
  public static long quotaBytes(Etcd etcd) {
    long spec = specQuotaBytes(etcd);
    Optional<Long> raised = capacityStatus(etcd).map(CapacityStatus::getRaisedQuota)
        .map(Quantities::bytesLong);
    if (raised.isEmpty()) {
      return spec;
    }
    long bounded = Optional.ofNullable(etcd(etcd).getCapacity())
        .map(CapacitySpec::getMaxQuota).map(Quantities::bytesLong)
        .map(max -> Math.min(max, raised.get())).orElse(raised.get());
    return Math.max(spec, bounded);
  }

  private static Optional<CapacityStatus> capacityStatus(Etcd etcd) {
    return Optional.ofNullable(etcd.getStatus()).map(EtcdStatus::getCapacity);
  }

  /**
   * The members the Etcd should run: {@code spec.replicas}, or none while upstream's
   * annotation disables the runtime components ({@link #runtimeComponentsEnabled}).
   */
  public static int replicas(Etcd etcd) {
    return runtimeComponentsEnabled(etcd)
        ? Optional.ofNullable(etcd.getSpec().getReplicas()).orElse(0) : 0;
  }

  /** False while the Etcd carries {@code disable-etcd-runtime-component-creation}. */
  public static boolean runtimeComponentsEnabled(Etcd etcd) {
    var annotations = etcd.getMetadata() == null ? null : etcd.getMetadata().getAnnotations();
    return annotations == null
        || !annotations.containsKey(Annotations.DISABLE_RUNTIME_COMPONENT_CREATION);
  }

  /** etcd's {@code backend-bbolt-freelist-type}: the spec's, else upstream's default. */
  public static String freelistType(Etcd etcd) {
    var type = etcd(etcd).getBackendBboltFreelistType();
    return type == null ? BBOLT_FREELIST_TYPE : type.name().toLowerCase(java.util.Locale.ROOT);
  }

  public static boolean clientTls(Etcd etcd) {
    return etcd(etcd).getClientUrlTls() != null;
  }

  /** The etcd the spec asks for ({@code spec.etcd.version}, default 3.6). */
  public static EtcdRelease etcdRelease(Etcd etcd) {
    return EtcdRelease.ofSpec(etcd(etcd).getVersion());
  }

  public static boolean peerTls(Etcd etcd) {
    return etcd(etcd).getPeerUrlTls() != null;
  }

  public static boolean agentTls(Etcd etcd) {
    return backup(etcd).getTls() != null;
  }

  public static boolean hasStore(Etcd etcd) {
    return backup(etcd).getStore() != null;
  }

  /**
   * The member image: {@code spec.backup.image} when it names this operator's image (any
   * registry, tag or digest), else the operator's. Upstream's manifests set it to an
   * etcd-backup-restore image, which cannot run the agent; such a value is reported as ignored
   * (status UpstreamFields).
   */
  public static String image(Etcd etcd, OperatorSettings settings) {
    String image = backup(etcd).getImage();
    return isMemberImage(image) ? image : settings.defaultImage();
  }

  /** Whether {@code image} is an image of this operator: repository name etcd-druid-jvm. */
  public static boolean isMemberImage(String image) {
    if (image == null || image.isBlank()) {
      return false;
    }
    String repository = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
    int slash = repository.lastIndexOf('/');
    int colon = repository.lastIndexOf(':');
    if (colon > slash) {
      repository = repository.substring(0, colon);
    }
    return repository.substring(repository.lastIndexOf('/') + 1).equals(MEMBER_IMAGE_NAME);
  }

  public static boolean deleteVolumesOnHibernation(Etcd etcd) {
    var h = etcd.getSpec().getHibernation();
    return h != null && Boolean.TRUE.equals(h.getDeleteVolumes());
  }
}
