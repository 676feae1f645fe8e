package cloud.gardener.druid.agent.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import cloud.gardener.druid.agent.space.GrowthWindow.Sample;
import org.junit.jupiter.api.Test;

class GrowthWindowTest {

  @Test
  void theRatesAreTheSlopesOfTheSamplesPerSecond() {
    GrowthWindow w = new GrowthWindow(300_000);
    for (int i = 0; i <= 12; i++) {
      // 5 s apart: 20 revisions and 1 MiB of file, 0.5 MiB in use per sample
      w.add(new Sample(i * 5_000L, 100 + 20L * i, (10L << 20) + ((long) i << 20),
          (5L << 20) + ((long) i << 19)));
    }
    assertThat(w.spanSeconds()).isEqualTo(60);
    assertThat(w.perSecond(Sample::revision)).isCloseTo(4.0, within(1e-9));
    assertThat(w.perSecond(Sample::dbSizeBytes)).isCloseTo((1 << 20) / 5.0, within(1e-6));
    assertThat(w.perSecond(Sample::inUseBytes)).isCloseTo((1 << 19) / 5.0, within(1e-6));
  }

  @Test
  void noRateBeforeTheSamplesSpanTwentySeconds() {
    GrowthWindow w = new GrowthWindow(300_000);
    w.add(new Sample(0, 1, 100, 100));
    w.add(new Sample(15_000, 50, 200, 200));
    assertThat(w.spanSeconds()).isZero();
    assertThat(w.perSecond(Sample::dbSizeBytes)).isZero();
  }

  @Test
  void aShrunkDatabaseStartsTheWindowAnew() {
    GrowthWindow w = new GrowthWindow(300_000);
    for (int i = 0; i <= 10; i++) {
      w.add(new Sample(i * 5_000L, i, 1_000_000L + i * 100_000L, 500_000));
    }
    w.add(new Sample(55_000, 11, 500_000, 500_000)); // defragmented
    assertThat(w.spanSeconds()).isZero();
    w.add(new Sample(80_000, 12, 500_000, 500_000));
    assertThat(w.spanSeconds()).isEqualTo(25);
    assertThat(w.perSecond(Sample::dbSizeBytes)).isZero();
  }

  @Test
  void oldSamplesLeaveTheWindow() {
    GrowthWindow w = new GrowthWindow(60_000);
    for (int i = 0; i <= 40; i++) {
      // grows for the first 100 s, flat afterwards
      long size = 1_000_000L + Math.min(i, 20) * 10_000L;
      w.add(new Sample(i * 5_000L, i, size, size));
    }
    assertThat(w.spanSeconds()).isEqualTo(60);
    assertThat(w.perSecond(Sample::dbSizeBytes)).isZero();
  }
}
