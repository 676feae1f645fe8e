package cloud.gardener.druid.operator.status;

import static cloud.gardener.druid.api.ConditionTypes.BACKUP_VERIFIED;
import static cloud.gardener.druid.api.ConditionTypes.FALSE;
import static cloud.gardener.druid.api.ConditionTypes.TRUE;
import static cloud.gardener.druid.api.ConditionTypes.UNKNOWN;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.operator.agent.AgentView;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.Optional;

/**
 * BackupVerified (addition, docs/backup-verification.md) from the newest restore drill's
 * report in the Etcd's verification lease: True with the revision proven and when, False with
 * the failing object and why, Unknown before the first drill or when nothing was proven.
 * Absent without a store. Also the recovery point as revisions ({@link #revisionLag}).
 */
public final class BackupVerification {

  private BackupVerification() {
  }

  static Optional<Condition> compute(ClusterSnapshot s) {
    if (!EtcdDefaults.hasStore(s.etcd())) {
      return Optional.empty();
    }
    Optional<String> json = s.verificationLease().map(Lease::getMetadata)
        .map(m -> m.getAnnotations() == null ? null
            : m.getAnnotations().get(DrillReport.LEASE_ANNOTATION));
    if (json.isEmpty()) {
      return Optional.of(Conditions.of(BACKUP_VERIFIED, UNKNOWN, "NotVerifiedYet",
          "No restore drill has reported yet."));
    }
    try {
      return Optional.of(of(DrillReport.parse(json.get())));
    } catch (IOException e) {
      return Optional.of(Conditions.of(BACKUP_VERIFIED, UNKNOWN, "ReportUnreadable",
          "The restore drill's report is unreadable: " + e.getMessage()));
    }
  }

  /**
   * How many revisions the cluster (the newest revision its members' agents sampled) is ahead
   * of the newest revision the last drill proved restorable, rounded down to two significant
   * digits (so that the status changes with the lag's size, not with every write). Empty
   * without a store, without a proof in the newest report, or when no member's agent said.
   */
  static Optional<Long> revisionLag(ClusterSnapshot s) {
    if (!EtcdDefaults.hasStore(s.etcd())) {
      return Optional.empty();
    }
    OptionalLong cluster = s.members().stream()
        .flatMap(m -> m.agent().flatMap(AgentView::space).stream())
        .mapToLong(MemberSpace::revision).max();
    Optional<DrillReport> proven = s.verificationLease().map(Lease::getMetadata)
        .map(m -> m.getAnnotations() == null ? null
            : m.getAnnotations().get(DrillReport.LEASE_ANNOTATION))
        .flatMap(BackupVerification::parse)
        .filter(r -> r.outcome() == DrillReport.Outcome.VERIFIED && r.verifiedRevision() > 0);
    if (cluster.isEmpty() || proven.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(twoDigits(Math.max(0, cluster.getAsLong()
        - proven.get().verifiedRevision())));
  }

  private static Optional<DrillReport> parse(String json) {
    try {
      return Optional.of(DrillReport.parse(json));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** {@code n} rounded down to two significant digits: 12345 to 12000, 99 stays 99. */
  static long twoDigits(long n) {
    long step = 1;
    while (n / step >= 100) {
      step *= 10;
    }
    return n / step * step;
  }

  /** The report of a drill, as the condition says it. */
  public static Condition of(DrillReport r) {
    String when = String.format(" (drill ended %s, took %.1f s, restore %.1f s)",
        r.finishedAt(), r.durationMillis() / 1000.0, r.restoreMillis() / 1000.0);
    return switch (r.outcome()) {
      case VERIFIED -> Conditions.of(BACKUP_VERIFIED, TRUE, "Verified", "Backups restore the "
          + "content etcd held up to revision " + r.verifiedRevision() + " (" + r.fullSnapshot()
          + " and " + r.deltas() + " deltas)" + when + ": " + r.message());
      case UNPROVEN -> Conditions.of(BACKUP_VERIFIED, UNKNOWN, "ContentNotProven",
          r.message() + when);
      case NOTHING_TO_VERIFY -> Conditions.of(BACKUP_VERIFIED, UNKNOWN, "NoBackups",
          r.message() + when);
      case FAILED -> Conditions.of(BACKUP_VERIFIED, FALSE, reason(r.reason()),
          r.object() + ": " + r.message() + when);
    };
  }

  static String reason(DrillReport.Reason reason) {
    return reason == null ? "DrillFailed" : switch (reason) {
      case CHECKSUM -> "ChecksumFailed";
      case DECODE -> "DecodeFailed";
      case HASH_MISMATCH -> "HashMismatch";
      case MISSING_DELTA -> "MissingDelta";
      case FOREIGN_STORE -> "ForeignStore";
      case RESTORE_FAILED -> "RestoreFailed";
    };
  }
}
