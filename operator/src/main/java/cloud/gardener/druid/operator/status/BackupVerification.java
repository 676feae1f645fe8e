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
import java.io.IOException;
import java.util.Optional;

/**
 * BackupVerified (addition, docs/backup-verification.md) from the newest restore drill's
 * report in the Etcd's verification lease: True with the revision proven and when, False with
 * the failing object and why, Unknown before the first drill or when nothing was proven.
 * Absent without a store.
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
