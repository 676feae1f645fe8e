package cloud.gardener.druid.agent.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.snapshot.SnapshotProgressMeter.Kind;
import cloud.gardener.druid.agent.snapshot.SnapshotProgressMeter.View;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SnapshotProgressMeterTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private final SnapshotProgressMeter progress =
      new SnapshotProgressMeter(Clock.fixed(T0, ZoneOffset.UTC));

  @Test
  void nothingIsReportedBeforeTheFirstSnapshot() {
    assertThat(progress.current()).isEmpty();
  }

  @Test
  void countsEveryByteWrittenThroughTheCountingStreamAndPassesThemOn() throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    progress.start(Kind.FULL, 10_000);
    OutputStream out = progress.counting(sink);
    out.write(new byte[4096], 0, 4096);
    out.write(7);
    assertThat(progress.current()).contains(new View(Kind.FULL, 4097, 10_000, T0, true));
    assertThat(sink.size()).isEqualTo(4097);

    progress.finish();
    assertThat(progress.current()).contains(new View(Kind.FULL, 4097, 10_000, T0, false));
  }

  @Test
  void aNewSnapshotStartsFromZeroAndAnUnknownTotalIsZero() throws Exception {
    progress.start(Kind.FULL, 10);
    progress.counting(OutputStream.nullOutputStream()).write(new byte[10]);
    progress.finish();

    progress.start(Kind.DELTA, -1);
    assertThat(progress.current()).contains(new View(Kind.DELTA, 0, 0, T0, true));
    assertThat(Kind.DELTA.label()).isEqualTo("delta");
  }
}
