package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.api.verify.DrillReport.Outcome;
import cloud.gardener.druid.api.verify.DrillReport.Reason;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackupVerificationTest {

  @Test
  void aVerifiedDrillIsTrueWithTheRevisionAndTheRestoreTime() {
    Condition c = BackupVerification.of(new DrillReport(Outcome.VERIFIED,
        "Full-00000000-00000100-1.gz", 3, 180, null, null, "HashKV equal", "2026-12-04T20:00:00Z",
        12_000, 9_000, "2026-12-04T19:59:00Z"));
    assertThat(c.getStatus()).isEqualTo("True");
    assertThat(c.getReason()).isEqualTo("Verified");
    assertThat(c.getMessage()).contains("up to revision 180",
        "Full-00000000-00000100-1.gz and 3 deltas", "took 12.0 s, restore 9.0 s");
  }

  @Test
  void aFailedDrillIsFalseNamingTheObjectAndWhy() {
    Condition c = BackupVerification.of(new DrillReport(Outcome.FAILED,
        "Full-00000000-00000100-1.gz", 3, 0, "Incr-00000101-00000150-2.gz", Reason.CHECKSUM,
        "delta Incr-00000101-00000150-2.gz failed its SHA-256 check", "2026-12-04T20:00:00Z",
        2_000, 0, null));
    assertThat(c.getStatus()).isEqualTo("False");
    assertThat(c.getReason()).isEqualTo("ChecksumFailed");
    assertThat(c.getMessage()).startsWith("Incr-00000101-00000150-2.gz: delta");
    for (Reason r : Reason.values()) {
      assertThat(BackupVerification.reason(r)).as(r.name()).matches("[A-Z][A-Za-z]+");
    }
  }

  @Test
  void restoredButUnprovenIsUnknown() {
    Condition c = BackupVerification.of(new DrillReport(Outcome.UNPROVEN,
        "Full-00000000-00000100-1.gz", 0, 0, null, null, "no hash recorded for Full-...",
        "2026-12-04T20:00:00Z", 2_000, 1_000, null));
    assertThat(c.getStatus()).isEqualTo("Unknown");
    assertThat(c.getReason()).isEqualTo("ContentNotProven");
  }

  @Test
  void theRevisionLagIsTheClusterAheadOfTheNewestProvenRevisionInTwoDigits() {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    for (int i = 0; i < 3; i++) {
      c.add(i, "new");
      c.members.get(i).space = space(i == 1 ? 12_480 : 12_400);
    }
    DrillReport verified = new DrillReport(Outcome.VERIFIED, "Full-1", 3, 180, null, null,
        "HashKV equal", "2026-12-04T20:00:00Z", 12_000, 9_000, "2026-12-04T19:59:00Z");
    assertThat(BackupVerification.revisionLag(c.snapshot().withVerificationLease(
        lease(verified)))).as("12,480 - 180 = 12,300").hasValue(12_000L);
    assertThat(BackupVerification.revisionLag(c.snapshot())).as("no drill yet").isEmpty();
    DrillReport failed = new DrillReport(Outcome.FAILED, "Full-1", 3, 0, "Incr-2",
        Reason.CHECKSUM, "failed its SHA-256 check", "2026-12-04T20:00:00Z", 2_000, 0, null);
    assertThat(BackupVerification.revisionLag(c.snapshot().withVerificationLease(
        lease(failed)))).as("the newest drill proved nothing").isEmpty();
    c.etcd.getSpec().setBackup(null);
    assertThat(BackupVerification.revisionLag(c.snapshot().withVerificationLease(
        lease(verified)))).as("no store").isEmpty();

    assertThat(BackupVerification.twoDigits(0)).isZero();
    assertThat(BackupVerification.twoDigits(99)).isEqualTo(99);
    assertThat(BackupVerification.twoDigits(12_345)).isEqualTo(12_000);
    assertThat(BackupVerification.twoDigits(1_999_999)).isEqualTo(1_900_000);
  }

  private static MemberSpace space(long revision) {
    return new MemberSpace(1, 1, 1, 1, 1, 1, 0, 0, 0, 0, List.of(), revision);
  }

  private static Optional<Lease> lease(DrillReport r) {
    return Optional.of(new LeaseBuilder().withNewMetadata().withName("etcd-backup-verification")
        .withAnnotations(Map.of(DrillReport.LEASE_ANNOTATION, r.toJson())).endMetadata()
        .build());
  }
}
