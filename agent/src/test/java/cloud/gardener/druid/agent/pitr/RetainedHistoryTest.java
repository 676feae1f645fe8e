package cloud.gardener.druid.agent.pitr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetainedHistoryTest {

  private static final Instant T = Instant.ofEpochSecond(1700000000);

  private static Snapshot full(long rev) {
    return Snapshot.full(0, rev, T.plusSeconds(rev), Compression.GZIP, false);
  }

  private static Snapshot delta(long start, long end) {
    return Snapshot.delta(start, end, T.plusSeconds(end), Compression.GZIP);
  }

  @Test
  void aRevisionInsideADeltaStopsThereFromTheNewestFullSnapshotBelowIt() throws Exception {
    RetainedHistory history = RetainedHistory.of(List.of(full(10), delta(11, 20),
        delta(21, 30), full(30), delta(31, 40)));

    RestorePlan at25 = history.planAt(25);
    assertThat(at25.full()).isEqualTo(full(10));
    assertThat(at25.deltas()).containsExactly(delta(11, 20), delta(21, 30));
    assertThat(at25.untilRevision()).isEqualTo(25);
    assertThat(at25.lastRevision()).isEqualTo(25);
    assertThat(at25.stopsWithin()).isTrue();

    RestorePlan at30 = history.planAt(30);
    assertThat(at30.full()).as("the newest full snapshot at or below R").isEqualTo(full(30));
    assertThat(at30.deltas()).isEmpty();
    assertThat(history.planAt(35).deltas()).containsExactly(delta(31, 40));
  }

  @Test
  void aRevisionOutsideTheRetainedHistoryIsRefusedWithTheRangesAvailable() {
    // garbage collection deleted the deltas before the newest full snapshot
    RetainedHistory history = RetainedHistory.of(List.of(full(10), full(30), delta(31, 40)));

    assertThat(history.describe()).startsWith("revisions 10..10 (").contains(", 30..40 (")
        .endsWith(") are available");
    assertThatThrownBy(() -> history.planAt(20)).isInstanceOf(PitrException.class)
        .hasMessage("revision 20 is outside the retained history: " + history.describe());
    assertThatThrownBy(() -> history.planAt(41)).isInstanceOf(PitrException.class);
    assertThatThrownBy(() -> history.planAt(5)).isInstanceOf(PitrException.class);
  }

  @Test
  void aGapEndsASpan() throws Exception {
    RetainedHistory history = RetainedHistory.of(List.of(full(10), delta(11, 20),
        delta(26, 30)));
    assertThat(history.newest().orElseThrow().to()).isEqualTo(20);
    assertThatThrownBy(() -> history.planAt(27)).hasMessageContaining("revisions 10..20 (");
  }

  @Test
  void aStoreWithoutAFullSnapshotHasNoHistory() {
    RetainedHistory history = RetainedHistory.of(List.of(delta(11, 20)));
    assertThat(history.isEmpty()).isTrue();
    assertThat(history.describe()).isEqualTo("the store holds no full snapshot");
  }
}
