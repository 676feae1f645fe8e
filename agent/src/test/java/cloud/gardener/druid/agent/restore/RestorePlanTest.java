package cloud.gardener.druid.agent.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RestorePlanTest {

  private static final Instant T = Instant.ofEpochSecond(1700000000);

  private static Snapshot full(long rev) {
    return Snapshot.full(0, rev, T.plusSeconds(rev), Compression.GZIP, false);
  }

  private static Snapshot delta(long start, long end) {
    return Snapshot.delta(start, end, T.plusSeconds(end), Compression.GZIP);
  }

  @Test
  void takesTheNewestFullAndTheDeltasAfterItInOrder() throws Exception {
    List<Snapshot> store = List.of(full(10), delta(11, 20), full(20), delta(31, 40),
        delta(21, 30), delta(15, 25));
    RestorePlan plan = RestorePlan.of(store).orElseThrow();
    assertThat(plan.full()).isEqualTo(full(20));
    assertThat(plan.deltas()).containsExactly(delta(15, 25), delta(21, 30), delta(31, 40));
    assertThat(plan.lastRevision()).isEqualTo(40);
  }

  @Test
  void aMissingDeltaInTheMiddleStopsTheRestoreAndNamesTheGap() {
    List<Snapshot> store = List.of(full(10), delta(11, 20), delta(31, 40));
    assertThatThrownBy(() -> RestorePlan.of(store))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("missing delta snapshot")
        .hasMessageContaining("revisions 21..30")
        .hasMessageContaining("Incr-00000011-00000020");
  }

  @Test
  void anEmptyStoreMeansANewCluster() throws Exception {
    assertThat(RestorePlan.of(List.of(delta(1, 5)))).isEmpty();
  }
}
