package cloud.gardener.druid.agent.pitr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaHistoryTest {

  private static final Instant T0 = Instant.parse("2026-12-04T23:00:00Z");

  @TempDir
  Path dir;

  private static DeltaEvent put(String key, long revision, Instant time) {
    return DeltaEvent.put(key.getBytes(StandardCharsets.UTF_8), new byte[] {1}, revision,
        revision, 1, 0, time);
  }

  @Test
  void aTimeIsTheLastEventNotAfterItAndAFullSnapshotOfTheSameSecondIsNotTrusted()
      throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(dir, "p");
    store.put(Snapshot.full(0, 10, T0, Compression.NONE, false), out -> out.write(1));
    Instant second = T0.plusSeconds(60);
    store.put(Snapshot.delta(11, 13, second, Compression.NONE), out -> DeltaFormat.write(List.of(
        put("/a", 11, second.plusMillis(100)), put("/b", 12, second.plusMillis(300)),
        DeltaEvent.delete("/a".getBytes(StandardCharsets.UTF_8), 13, second.plusMillis(600))),
        out));
    // taken at .800 in the same second, named by the second: it holds revision 13
    store.put(Snapshot.full(0, 13, second, Compression.NONE, false), out -> out.write(1));
    DeltaHistory history = new DeltaHistory(store, RetainedHistory.of(store.list()));

    assertThat(history.revisionOf(new PointInTime.AtTime(second.plusMillis(400))))
        .isEqualTo(12);
    assertThat(history.revisionOf(new PointInTime.AtTime(second.plusMillis(50))))
        .isEqualTo(10);
    assertThat(history.revisionOf(new PointInTime.AtTime(second.plusSeconds(5))))
        .isEqualTo(13);
    assertThat(history.deletions("/a")).singleElement().satisfies(d -> {
      assertThat(d.revision()).isEqualTo(13);
      assertThat(d.time()).isEqualTo(second.plusMillis(600));
    });
    assertThatThrownBy(() -> history.revisionOf(new PointInTime.AtTime(T0.minusSeconds(1))))
        .isInstanceOf(PitrException.class).hasMessageContaining("before the retained history");
  }

  /** On a quiet, fast machine two full snapshots, and the time asked for, share one second. */
  @Test
  void twoFullSnapshotsInTheSecondOfTheTimeAreToldApartByTheEventsBetweenThem()
      throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(dir, "p");
    Instant second = T0.plusSeconds(60);
    store.put(Snapshot.full(0, 10, second, Compression.NONE, false), out -> out.write(1));
    store.put(Snapshot.delta(11, 13, second, Compression.NONE), out -> DeltaFormat.write(List.of(
        put("/a", 11, second.plusMillis(100)), put("/b", 12, second.plusMillis(300)),
        put("/c", 13, second.plusMillis(600))), out));
    // taken at .800, after the delta's events: it holds revision 13
    store.put(Snapshot.full(0, 13, second, Compression.NONE, false), out -> out.write(1));
    DeltaHistory history = new DeltaHistory(store, RetainedHistory.of(store.list()));

    assertThat(history.revisionOf(new PointInTime.AtTime(second.plusMillis(400))))
        .as("the newer full snapshot followed an event received after .400").isEqualTo(12);
    assertThat(history.revisionOf(new PointInTime.AtTime(second.plusMillis(50))))
        .isEqualTo(10);
    assertThat(history.revisionOf(new PointInTime.AtTime(second.plusMillis(900))))
        .isEqualTo(13);
  }
}
