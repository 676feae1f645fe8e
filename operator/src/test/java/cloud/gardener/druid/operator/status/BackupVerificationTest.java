package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.api.verify.DrillReport.Outcome;
import cloud.gardener.druid.api.verify.DrillReport.Reason;
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
}
