package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which deltas a restore replays after the newest full snapshot, and where a gap is. */
class SnapshotChainTest {

  private static final Instant T = Instant.parse("2026-12-01T00:00:00Z");

  @Test
  void overlappingAndOlderDeltasJoinTheChainWithoutAGap() {
    SnapshotChain chain = SnapshotChain.of(List.of(delta(1, 5), full(10), delta(11, 20),
        delta(15, 25), delta(26, 30))).orElseThrow();
    assertThat(chain.full().endRevision()).isEqualTo(10);
    assertThat(chain.deltas()).extracting(Snapshot::endRevision).containsExactly(20L, 25L, 30L);
    assertThat(chain.gap()).isEmpty();
  }

  @Test
  void aMissingDeltaEndsTheChainAndIsNamedWithItsNeighbours() {
    SnapshotChain chain = SnapshotChain.of(List.of(full(10), delta(11, 20), delta(31, 40),
        delta(41, 50))).orElseThrow();
    assertThat(chain.deltas()).extracting(Snapshot::endRevision).containsExactly(20L);
    SnapshotChain.Gap gap = chain.gap().orElseThrow();
    assertThat(gap.from()).isEqualTo(21);
    assertThat(gap.to()).isEqualTo(30);
    assertThat(gap.describe()).isEqualTo("no snapshot holds revisions 21..30, between "
        + delta(11, 20).fileName() + " and delta " + delta(31, 40).fileName());
  }

  @Test
  void aNewerFullSnapshotStartsANewChain() {
    SnapshotChain chain = SnapshotChain.of(List.of(full(10), delta(31, 40), full(40),
        delta(41, 50))).orElseThrow();
    assertThat(chain.full().endRevision()).isEqualTo(40);
    assertThat(chain.gap()).isEmpty();
    assertThat(SnapshotChain.of(List.of(delta(1, 5)))).isEmpty();
  }

  private static Snapshot full(long end) {
    return Snapshot.full(0, end, T.plusSeconds(end), Compression.GZIP, false);
  }

  private static Snapshot delta(long start, long end) {
    return Snapshot.delta(start, end, T.plusSeconds(end), Compression.GZIP);
  }
}
