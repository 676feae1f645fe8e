package cloud.gardener.druid.operator.metrics;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.capacity.Rounding;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gauges of each Etcd, computed from the Etcd as the operator last saw it (the status it
 * wrote), so they cost no API call: registered when an Etcd is first seen, updated with each
 * newer version, removed when it is gone. Labelled {@code etcd_namespace} (the label Gardener
 * federates etcd-druid's metrics by, as upstream's compaction metrics carry it) and
 * {@code etcd}.
 */
public final class EtcdGauges {

  public static final String MEMBERS_READY = "etcddruid_etcd_members_ready";
  public static final String REPLICAS = "etcddruid_etcd_replicas";
  public static final String ROLLOUT_IN_PROGRESS = "etcddruid_etcd_rollout_in_progress";
  public static final String VOLUME_OPERATION_PHASE = "etcddruid_etcd_volume_operation_phase";
  public static final String DB_SIZE = "etcddruid_etcd_db_size_bytes";
  public static final String DB_SIZE_IN_USE = "etcddruid_etcd_db_size_in_use_bytes";
  public static final String QUOTA = "etcddruid_etcd_quota_bytes";
  public static final String TIME_TO_QUOTA = "etcddruid_etcd_time_to_quota_seconds";
  public static final String TIME_TO_VOLUME_FULL = "etcddruid_etcd_time_to_volume_full_seconds";
  public static final String SPACE_AVAILABLE = "etcddruid_etcd_space_available";
  public static final String LAST_ERRORS = "etcddruid_etcd_last_errors";
  public static final String MEMBER_DATA_CORRUPTED = "etcddruid_etcd_member_data_corrupted";
  public static final String BACKUP_REVISION_LAG =
      "etcddruid_backup_verification_revision_lag";

  /** Every phase of {@code status.volumeOperation}, one series each (1 for the current). */
  static final List<String> PHASES = List.of(VolumeOperation.PHASE_SNAPSHOT_PENDING,
      VolumeOperation.PHASE_SNAPSHOTTED, VolumeOperation.PHASE_REPLACING,
      VolumeOperation.PHASE_EXPANDING, VolumeOperation.PHASE_REMOVING_MEMBERS,
      VolumeOperation.PHASE_VOLUMES_DELETED, VolumeOperation.PHASE_RESTORING,
      VolumeOperation.PHASE_COMPLETED, VolumeOperation.PHASE_FAILED);

  private final MeterRegistry registry;
  private final Map<String, Tracked> etcds = new ConcurrentHashMap<>();

  public EtcdGauges(MeterRegistry registry) {
    this.registry = registry;
  }

  /** The newest version of an Etcd seen (an older one, by resourceVersion, never wins). */
  public void seen(Etcd etcd) {
    String key = key(etcd.getMetadata().getNamespace(), etcd.getMetadata().getName());
    Tracked tracked = etcds.computeIfAbsent(key, k -> register(etcd));
    synchronized (tracked) {
      if (!olderThan(etcd, tracked.latest)) {
        tracked.latest = etcd;
      }
      tracked.corrupted.register(corruptedRows(tracked.latest), true);
    }
  }

  /** One series per member in status.members: 1 while etcd found its data corrupted. */
  static List<MultiGauge.Row<?>> corruptedRows(Etcd etcd) {
    EtcdStatus status = etcd.getStatus();
    if (status == null || status.getMembers() == null) {
      return List.of();
    }
    return status.getMembers().stream().filter(m -> m.getName() != null)
        .<MultiGauge.Row<?>>map(m -> MultiGauge.Row.of(Tags.of("member", m.getName()),
            m.getDataCorruption() == null ? 0 : 1))
        .toList();
  }

  /** By resourceVersion, which the API server takes from etcd's revision (a number). */
  private static boolean olderThan(Etcd a, Etcd b) {
    try {
      return Long.parseLong(a.getMetadata().getResourceVersion())
          < Long.parseLong(b.getMetadata().getResourceVersion());
    } catch (NumberFormatException e) {
      return false;
    }
  }

  public void gone(String namespace, String name) {
    Tracked tracked = etcds.remove(key(namespace, name));
    if (tracked != null) {
      tracked.gauges.forEach(registry::remove);
      tracked.corrupted.register(List.of(), true);
    }
  }

  private Tracked register(Etcd etcd) {
    Tags tags = Tags.of("etcd_namespace", etcd.getMetadata().getNamespace(),
        "etcd", etcd.getMetadata().getName());
    Tracked tracked = new Tracked(etcd, MultiGauge.builder(MEMBER_DATA_CORRUPTED)
        .description("1 while etcd's corruption checks found the member's data differs from"
            + " its peers' (status.members[].dataCorruption; cure: replaceMemberVolume), 0"
            + " otherwise.").tags(tags).register(registry));
    tracked.gauges.add(Gauge.builder(BACKUP_REVISION_LAG, tracked,
            t -> revisionLag(t.latest))
        .description("Revisions the cluster is ahead of the newest revision a restore drill"
            + " proved restorable (status.verifiedBackupRevisionLag, two significant digits;"
            + " NaN when unknown).").tags(tags).register(registry));
    tracked.gauges.add(Gauge.builder(MEMBERS_READY, tracked, t -> membersReady(t.latest))
        .description("Members of the Etcd that are ready (status.readyReplicas).")
        .tags(tags).register(registry));
    tracked.gauges.add(Gauge.builder(REPLICAS, tracked, t -> replicas(t.latest))
        .description("Members the Etcd asks for (spec.replicas).").tags(tags).register(registry));
    tracked.gauges.add(Gauge.builder(ROLLOUT_IN_PROGRESS, tracked,
            t -> RolloutCompletion.isComplete(t.latest) ? 0 : 1)
        .description("1 until the rollout of the Etcd's generation is complete"
            + " (docs/rollout-contract.md).").tags(tags).register(registry));
    tracked.gauges.add(Gauge.builder(LAST_ERRORS, tracked, t -> lastErrors(t.latest))
        .description("Errors of the Etcd's last reconcile (status.lastErrors).").tags(tags)
        .register(registry));
    for (String phase : PHASES) {
      tracked.gauges.add(Gauge.builder(VOLUME_OPERATION_PHASE, tracked,
              t -> phase.equals(volumePhase(t.latest)) ? 1 : 0)
          .description("1 for the phase of status.volumeOperation, 0 for the others.")
          .tags(tags.and("phase", phase)).register(registry));
    }
    capacity(tracked, tags);
    return tracked;
  }

  /**
   * The space figures of status.capacity (as rounded there) and SpaceAvailable: the forecasts
   * are absent (NaN) while the database does not grow.
   */
  private void capacity(Tracked tracked, Tags tags) {
    gauge(tracked, tags, DB_SIZE, "The largest member database (status.capacity.dbSize).",
        c -> bytes(c.getDbSize()));
    gauge(tracked, tags, DB_SIZE_IN_USE, "The most data in use of a member database.",
        c -> bytes(c.getDbSizeInUse()));
    gauge(tracked, tags, QUOTA, "The quota the members run with.", c -> bytes(c.getQuota()));
    gauge(tracked, tags, TIME_TO_QUOTA, "Forecast seconds until the database reaches the quota"
        + " (rounded down; NaN while it does not grow).", c -> seconds(c.getTimeToQuota()));
    gauge(tracked, tags, TIME_TO_VOLUME_FULL, "Forecast seconds until a member's volume is full"
        + " (rounded down; NaN while it does not fill).", c -> seconds(c.getTimeToVolumeFull()));
    tracked.gauges.add(Gauge.builder(SPACE_AVAILABLE, tracked, t -> spaceAvailable(t.latest))
        .description("1 while the SpaceAvailable condition is True, 0 while False (NOSPACE, or"
            + " the quota or a volume runs out soon with nothing automatic left to do).")
        .tags(tags).register(registry));
  }

  private void gauge(Tracked tracked, Tags tags, String name, String help,
      java.util.function.ToDoubleFunction<CapacityStatus> value) {
    tracked.gauges.add(Gauge.builder(name, tracked, t -> {
      CapacityStatus c = t.latest.getStatus() == null ? null : t.latest.getStatus().getCapacity();
      return c == null ? Double.NaN : value.applyAsDouble(c);
    }).description(help).tags(tags).register(registry));
  }

  static double bytes(io.fabric8.kubernetes.api.model.Quantity q) {
    return q == null ? Double.NaN : q.getNumericalAmount().doubleValue();
  }

  static double seconds(String forecast) {
    return Rounding.parse(forecast).map(d -> (double) d.toSeconds()).orElse(Double.NaN);
  }

  static double spaceAvailable(Etcd etcd) {
    return etcd.getStatus() == null ? Double.NaN
        : Condition.find(etcd.getStatus().getConditions(), ConditionTypes.SPACE_AVAILABLE)
            .map(c -> ConditionTypes.TRUE.equals(c.getStatus()) ? 1.0
                : ConditionTypes.FALSE.equals(c.getStatus()) ? 0.0 : Double.NaN)
            .orElse(Double.NaN);
  }

  static double revisionLag(Etcd etcd) {
    EtcdStatus status = etcd.getStatus();
    return status == null || status.getVerifiedBackupRevisionLag() == null ? Double.NaN
        : status.getVerifiedBackupRevisionLag();
  }

  static double membersReady(Etcd etcd) {
    EtcdStatus status = etcd.getStatus();
    return status == null || status.getReadyReplicas() == null ? 0 : status.getReadyReplicas();
  }

  static double lastErrors(Etcd etcd) {
    EtcdStatus status = etcd.getStatus();
    return status == null || status.getLastErrors() == null ? 0 : status.getLastErrors().size();
  }

  static double replicas(Etcd etcd) {
    Integer replicas = etcd.getSpec() == null ? null : etcd.getSpec().getReplicas();
    return replicas == null ? 0 : replicas;
  }

  static String volumePhase(Etcd etcd) {
    EtcdStatus status = etcd.getStatus();
    return status == null || status.getVolumeOperation() == null ? null
        : status.getVolumeOperation().getPhase();
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + Objects.requireNonNull(name);
  }

  private static final class Tracked {
    private final List<Gauge> gauges = new ArrayList<>();
    private final MultiGauge corrupted;
    private volatile Etcd latest;

    private Tracked(Etcd etcd, MultiGauge corrupted) {
      this.latest = etcd;
      this.corrupted = corrupted;
    }
  }
}
