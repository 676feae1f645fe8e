package cloud.gardener.druid.operator.drill;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DrillScheduleTest {

  static final Instant CREATED = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void theFirstDrillIsDueAtTheScheduleAfterTheEtcdWasCreated() {
    assertThat(DrillScheduleReconciler.due("@daily", Optional.empty(), Optional.empty(),
        CREATED)).isEqualTo(Instant.parse("2026-12-02T00:00:00Z"));
  }

  @Test
  void theNextDrillIsDueAfterTheLastReportOrTheLastJobWithoutOne() {
    assertThat(DrillScheduleReconciler.due("@daily",
        Optional.of(Instant.parse("2026-12-03T00:05:00Z")), Optional.empty(), CREATED))
        .isEqualTo(Instant.parse("2026-12-04T00:00:00Z"));
    assertThat(DrillScheduleReconciler.due("0 3 * * *", Optional.empty(),
        Optional.of(Instant.parse("2026-12-03T03:00:01Z")), CREATED))
        .as("a Job that ended without a report is not retried at once")
        .isEqualTo(Instant.parse("2026-12-04T03:00:00Z"));
  }
}
