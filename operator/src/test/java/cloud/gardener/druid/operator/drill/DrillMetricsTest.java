package cloud.gardener.druid.operator.drill;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.api.verify.DrillReport.Outcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class DrillMetricsTest {

  @Test
  void aVerifiedDrillGivesTheTimeSinceItTheRestoreTimeAndTheDataLossWindow() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Clock clock = Clock.fixed(Instant.parse("2026-12-04T21:00:00Z"), ZoneOffset.UTC);
    DrillMetrics metrics = new DrillMetrics(registry, clock);
    DrillReport verified = new DrillReport(Outcome.VERIFIED, "Full-00000000-00000100-1", 2,
        150, null, null, "equal", "2026-12-04T20:59:00Z", 30_000, 12_500,
        "2026-12-04T20:50:00Z");

    metrics.report("ns", "main", verified);
    metrics.report("ns", "main", verified); // the same drill again: counted once

    assertThat(gauge(registry, DrillMetrics.SINCE_VERIFIED)).isEqualTo(60.0);
    assertThat(gauge(registry, DrillMetrics.DATA_LOSS_WINDOW)).isEqualTo(600.0);
    assertThat(gauge(registry, DrillMetrics.RESTORE)).isEqualTo(12.5);
    assertThat(gauge(registry, DrillMetrics.DRILL)).isEqualTo(30.0);
    assertThat(registry.get(DrillMetrics.DRILLS).tag("outcome", "VERIFIED").counter().count())
        .isEqualTo(1.0);
    assertThat(registry.get(DrillMetrics.DRILLS).tag("outcome", "FAILED").counter().count())
        .as("every outcome is there from the Etcd's first report, at zero").isZero();

    metrics.report("ns", "main", new DrillReport(Outcome.FAILED, "Full-00000000-00000100-1",
        2, 0, "Incr-00000101-00000150-2", DrillReport.Reason.CHECKSUM, "bad",
        "2026-12-04T21:00:00Z", 5_000, 0, null));
    assertThat(gauge(registry, DrillMetrics.SINCE_VERIFIED)).as("a failure proves nothing")
        .isEqualTo(60.0);
    assertThat(registry.get(DrillMetrics.DRILLS).tag("outcome", "FAILED").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void beforeTheFirstProofTheTimeSinceIsNotANumber() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new DrillMetrics(registry, Clock.systemUTC()).report("ns", "main", new DrillReport(
        Outcome.UNPROVEN, "Full-00000000-00000100-1", 0, 0, null, null, "no hash",
        "2026-12-04T21:00:00Z", 1_000, 500, null));
    assertThat(gauge(registry, DrillMetrics.SINCE_VERIFIED)).isNaN();
  }

  private static double gauge(SimpleMeterRegistry registry, String name) {
    return registry.get(name).tag("etcd_namespace", "ns").tag("etcd", "main").gauge().value();
  }
}
