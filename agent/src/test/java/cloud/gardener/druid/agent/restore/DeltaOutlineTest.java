package cloud.gardener.druid.agent.restore;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaOutlineTest {

  @TempDir
  Path dir;

  private final Snapshot full = Snapshot.full(0, 100, Instant.EPOCH, Compression.NONE, false);

  /** Puts and deletes, several keys per revision now and then, keys written again. */
  private static List<DeltaEvent> events(Random random, long from, long to) {
    List<DeltaEvent> events = new ArrayList<>();
    for (long rev = from; rev <= to; rev++) {
      int keys = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : 1;
      for (int k = 0; k < keys; k++) {
        byte[] key = ("/registry/k" + random.nextInt(40) + "-" + k)
            .getBytes(StandardCharsets.UTF_8);
        if (random.nextInt(5) == 0) {
          events.add(DeltaEvent.delete(key, rev, Instant.EPOCH));
        } else {
          byte[] value = new byte[random.nextInt(random.nextInt(10) == 0 ? 3000 : 20)];
          random.nextBytes(value);
          events.add(DeltaEvent.put(key, value, rev, rev, 1, 0, Instant.EPOCH));
        }
      }
    }
    return events;
  }

  private static byte[] written(List<DeltaEvent> events) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DeltaFormat.write(events, out);
    return out.toByteArray();
  }

  private static Optional<List<DeltaEvent>> outline(byte[] delta) {
    // the scan must stay within the length it is given, whatever follows in the array
    byte[] padded = java.util.Arrays.copyOf(delta, delta.length + 64);
    java.util.Arrays.fill(padded, delta.length, padded.length, (byte) '"');
    return DeltaOutline.read(padded, delta.length, DeltaOutline.newZeros());
  }

  private static void assertSameOutline(List<DeltaEvent> outline, List<DeltaEvent> parsed) {
    assertThat(outline).hasSameSizeAs(parsed);
    for (int i = 0; i < parsed.size(); i++) {
      assertThat(outline.get(i).key()).as("key of event " + i).isEqualTo(parsed.get(i).key());
      assertThat(outline.get(i).modRevision()).isEqualTo(parsed.get(i).modRevision());
      assertThat(outline.get(i).value()).as("value length of event " + i)
          .hasSize(parsed.get(i).value().length);
    }
  }

  @Test
  void theOutlineOfWhatTheAgentWritesHasTheParsersKeysRevisionsAndValueLengths()
      throws Exception {
    List<DeltaEvent> events = events(new Random(7), 101, 600);
    byte[] delta = written(events);
    assertSameOutline(outline(delta).orElseThrow(),
        DeltaFormat.read(new ByteArrayInputStream(delta), "delta"));
    assertThat(outline(written(List.of())).orElseThrow()).isEmpty();
  }

  @Test
  void otherSpellingsAreOutlinedAlikeOrLeftToTheParser() throws Exception {
    // Go's layout with whitespace, a delete spelled out, a prev_kv holding its own key and value
    String spaced = "[ {\"etcdEvent\" : {\"type\":\"DELETE\", \"kv\": {\"key\":\"YQ==\","
        + " \"mod_revision\": 101}, \"prev_kv\": {\"key\":\"Yg==\",\"value\":\"eHh4eA==\","
        + "\"mod_revision\":7, \"x\":[1,{\"y\":\"\\\"\"}], \"n\":null, \"t\":true}},"
        + " \"time\":\"2026-01-01T00:00:00Z\"},\n {\"time\":\"t\", \"etcdEvent\":{\"kv\":{"
        + "\"value\":\"eA==\",\"key\":\"Yw==\",\"mod_revision\":102,\"lease\":-3}}} ]";
    byte[] delta = withTrailer(spaced);
    assertSameOutline(outline(delta).orElseThrow(),
        DeltaFormat.read(new ByteArrayInputStream(delta), "delta"));

    // an escape inside a key: the parser decides
    assertThat(outline(withTrailer("[{\"etcdEvent\":{\"kv\":{\"key\":\"Y\\u0051==\","
        + "\"mod_revision\":101}}}]"))).isEmpty();
    // base64 without padding, a revision that is not an integer, a second kv, no etcdEvent
    assertThat(outline(withTrailer("[{\"etcdEvent\":{\"kv\":{\"key\":\"YQ\",\"value\":\"eA\","
        + "\"mod_revision\":101}}}]"))).isEmpty();
    assertThat(outline(withTrailer("[{\"etcdEvent\":{\"kv\":{\"key\":\"YQ==\","
        + "\"mod_revision\":\"101\"}}}]"))).isEmpty();
    assertThat(outline(withTrailer("[{\"etcdEvent\":{\"kv\":{\"key\":\"YQ==\"},"
        + "\"kv\":{\"mod_revision\":101}}}]"))).isEmpty();
    assertThat(outline(withTrailer("[{\"time\":\"t\"}]"))).isEmpty();
    assertThat(outline(withTrailer("[{\"etcdEvent\":{\"kv\":{\"key\":\"YQ==\"}}}"))).isEmpty();
  }

  private static byte[] withTrailer(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    byte[] hash = sha256(bytes);
    byte[] all = java.util.Arrays.copyOf(bytes, bytes.length + hash.length);
    System.arraycopy(hash, 0, all, bytes.length, hash.length);
    return all;
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theCountIsTheReplaysTransactionsWithDeletesMultiKeyRevisionsAndOverlaps()
      throws Exception {
    for (int seed = 0; seed < 20; seed++) {
      Random random = new Random(seed);
      LocalSnapshotStore store = new LocalSnapshotStore(dir.resolve("s" + seed), "p");
      List<Snapshot> deltas = new ArrayList<>();
      // the first delta starts before the full snapshot's revision, as after a leader change
      long from = 90;
      for (int d = 0; d < 4; d++) {
        long to = from + 20 + random.nextInt(200);
        Snapshot delta = Snapshot.delta(from, to, Instant.EPOCH, Compression.NONE);
        List<DeltaEvent> events = events(random, from, to);
        store.put(delta, out -> DeltaFormat.write(events, out));
        deltas.add(delta);
        from = to + 1;
      }
      int maxKeys = 3 + random.nextInt(30);
      long maxBytes = 300 + random.nextInt(20_000);
      int batches = 0;
      try (DeltaReader reader = DeltaReader.start(store, new RestorePlan(full, deltas), maxKeys,
          maxBytes, 1 << 20, dir.resolve("copies" + seed))) {
        while (reader.next() != null) {
          batches++;
        }
        assertThat(reader.count().transactions()).as("seed " + seed).isEqualTo(batches);
        assertThat(reader.count().lastRevision()).isEqualTo(from - 1)
            .isEqualTo(reader.sourceRevision());
        assertThat(reader.count().events()).isEqualTo(reader.events());
      }
    }
  }
}
