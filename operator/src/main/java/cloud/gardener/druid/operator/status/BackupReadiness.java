package cloud.gardener.druid.operator.status;

import static cloud.gardener.druid.api.ConditionTypes.BACKUP_READY;
import static cloud.gardener.druid.api.ConditionTypes.FALSE;
import static cloud.gardener.druid.api.ConditionTypes.TRUE;
import static cloud.gardener.druid.api.ConditionTypes.UNKNOWN;

import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * BackupReady from the snapshot leases, as upstream: a snapshot kind is fresh when its lease
 * was renewed within twice its period, failed beyond three times. Absent without a store.
 */
final class BackupReadiness {

  private BackupReadiness() {
  }

  static Optional<Condition> compute(ClusterSnapshot s) {
    if (!EtcdDefaults.hasStore(s.etcd())) {
      return Optional.empty();
    }
    BackupSpec backup = s.etcd().getSpec().getBackup();
    Duration deltaPeriod = period(backup.getDeltaSnapshotPeriod(), EtcdDefaults.DELTA_SNAPSHOT_PERIOD);
    Duration fullPeriod = fullInterval(backup.getFullSnapshotSchedule(), s.observedAt());
    Freshness full = freshness(s.fullSnapshotLease(), fullPeriod, s.observedAt());
    Freshness delta = freshness(s.deltaSnapshotLease(), deltaPeriod, s.observedAt());
    if (full == Freshness.STALE || delta == Freshness.STALE) {
      return Optional.of(Conditions.of(BACKUP_READY, FALSE, "BackupFailed",
          "Snapshots are stale: full " + full.text + ", delta " + delta.text + "."));
    }
    if (full == Freshness.FRESH && delta == Freshness.FRESH) {
      return Optional.of(Conditions.of(BACKUP_READY, TRUE, "BackupSucceeded",
          "Full and delta snapshots are fresh."));
    }
    return Optional.of(Conditions.of(BACKUP_READY, UNKNOWN, "BackupPending",
        "Waiting for snapshots: full " + full.text + ", delta " + delta.text + "."));
  }

  enum Freshness {
    FRESH("fresh"), LATE("late"), NONE("not taken yet"), STALE("stale");

    final String text;

    Freshness(String text) {
      this.text = text;
    }
  }

  static Freshness freshness(Optional<Lease> lease, Duration period, Instant now) {
    Optional<Instant> renewed = lease.map(Lease::getSpec).map(spec -> spec.getRenewTime())
        .map(ZonedDateTime::toInstant);
    if (renewed.isEmpty()) {
      return Freshness.NONE;
    }
    Duration age = Duration.between(renewed.get(), now);
    if (age.compareTo(period.multipliedBy(2)) <= 0) {
      return Freshness.FRESH;
    }
    return age.compareTo(period.multipliedBy(3)) <= 0 ? Freshness.LATE : Freshness.STALE;
  }

  private static Duration period(GoDuration d, String fallback) {
    GoDuration value = d == null || !d.isValid() ? GoDuration.parse(fallback) : d;
    return value.toDuration();
  }

  private static Duration fullInterval(CronSchedule schedule, Instant now) {
    CronSchedule s = schedule == null || !schedule.isValid()
        ? CronSchedule.parse(EtcdDefaults.FULL_SNAPSHOT_SCHEDULE) : schedule;
    return s.intervalAfter(ZonedDateTime.ofInstant(now, ZoneOffset.UTC));
  }
}
