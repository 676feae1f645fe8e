package cloud.gardener.druid.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeapReleaseTest {

  private static final long MIB = 1 << 20;

  @Test
  void anOldGenerationABurstGrewIsGivenBack() {
    // measured: 19 MiB after the release at the end of a restore, 52 MiB after the first delta
    assertThat(HeapRelease.grown(52 * MIB, 19 * MIB)).isTrue();
  }

  @Test
  void aSteadyHeapIsLeftAlone() {
    assertThat(HeapRelease.grown(19 * MIB, 19 * MIB)).isFalse();
    assertThat(HeapRelease.grown(35 * MIB, 19 * MIB)).isFalse();
  }
}
