package cloud.gardener.druid.agent.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaReaderTest {

  @TempDir
  Path dir;

  private final Snapshot full = Snapshot.full(0, 10, Instant.EPOCH, Compression.NONE, false);

  private Snapshot delta(LocalSnapshotStore store, long from, long to) throws Exception {
    Snapshot delta = Snapshot.delta(from, to, Instant.EPOCH, Compression.NONE);
    List<DeltaEvent> events = new ArrayList<>();
    for (long rev = from; rev <= to; rev++) {
      events.add(DeltaEvent.put(("k" + rev).getBytes(StandardCharsets.UTF_8),
          "0123456789".getBytes(StandardCharsets.UTF_8), rev, rev, 1, 0, Instant.EPOCH));
    }
    store.put(delta, out -> DeltaFormat.write(events, out));
    return delta;
  }

  @Test
  void aBudgetSmallerThanTheDeltasStillDeliversEveryBatchInOrder() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(dir, "p");
    RestorePlan plan = new RestorePlan(full, List.of(delta(store, 11, 60), delta(store, 61, 90)));
    List<String> keys = new ArrayList<>();
    int batches = 0;
    // batches of 7 keys, read ahead at most about 2 batches
    try (DeltaReader reader = DeltaReader.start(store, plan, 7, 1 << 20,
        2 * 7 * (10 + 3 + DeltaBatcher.PER_EVENT_OVERHEAD), dir.resolve("copies"))) {
      for (DeltaBatcher.Batch batch; (batch = reader.next()) != null; ) {
        assertThat(batch.events()).hasSizeLessThanOrEqualTo(7);
        batch.events().forEach(e -> keys.add(new String(e.key(), StandardCharsets.UTF_8)));
        batches++;
      }
      assertThat(reader.count()).as("the first pass counts the batches the second delivers")
          .isEqualTo(new DeltaReader.Count(batches, 90, 80));
      assertThat(batches).isEqualTo(12);
      assertThat(reader.next()).as("the end stays the end").isNull();
      assertThat(reader.sourceRevision()).isEqualTo(90);
      assertThat(reader.events()).isEqualTo(80);
    }
    assertThat(keys).hasSize(80).startsWith("k11", "k12").endsWith("k89", "k90");
  }

  @Test
  void aCorruptDeltaStopsTheReaderWithItsName() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(dir, "p");
    Snapshot first = delta(store, 11, 20);
    Snapshot second = delta(store, 21, 30);
    Path file = store.directory().resolve(second.fileName());
    byte[] bytes = Files.readAllBytes(file);
    bytes[5] ^= 1;
    Files.write(file, bytes);
    try (DeltaReader reader = DeltaReader.start(store, new RestorePlan(full,
        List.of(first, second)), 1000, 1 << 20, 1 << 20, dir.resolve("copies"))) {
      assertThatThrownBy(() -> {
        while (reader.next() != null) {
          // drain
        }
      }).isInstanceOf(SnapshotIntegrityException.class)
          .hasMessageContaining("delta snapshot " + second.fileName())
          .hasMessageContaining("SHA-256");
      assertThatThrownBy(reader::next).as("the failure stays")
          .isInstanceOf(SnapshotIntegrityException.class);
    }
  }
}
