package cloud.gardener.druid.agent.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeapCeilingTest {

  private static final long MIB = 1 << 20;

  @Test
  void anOldGenerationABurstGrewIsGivenBack() {
    // measured: 19 MiB after the release at the end of a restore, 52 MiB after the first delta
    assertThat(HeapCeiling.grown(52 * MIB, 19 * MIB)).isTrue();
  }

  @Test
  void aSteadyHeapIsLeftAlone() {
    assertThat(HeapCeiling.grown(19 * MIB, 19 * MIB)).isFalse();
    assertThat(HeapCeiling.grown(35 * MIB, 19 * MIB)).isFalse();
  }

  @Test
  void beforeTheFirstFullCollectionTheSlackAloneIsTheCeiling() {
    assertThat(HeapCeiling.grown(8 * MIB, 0)).isFalse();
    assertThat(HeapCeiling.grown(9 * MIB, 0)).isTrue();
  }

  @Test
  void afterADeltaAnOldGenerationThatHadToGrowIsCollected() {
    // measured after 100,000 events: 16 MiB after the full snapshot's release, 23 MiB committed
    assertThat(HeapCeiling.expanded(23 * MIB, 16 * MIB)).isTrue();
    assertThat(HeapCeiling.expanded(16 * MIB, 16 * MIB)).isFalse();
    assertThat(HeapCeiling.expanded(14 * MIB, 16 * MIB)).isFalse();
  }
}
