package cloud.gardener.druid.agent.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link DeltaBatcher} feeding {@link TransactionSender}, as a restore wires them. */
class DeltaReplayTest {

  /** The batcher and the sender of one replay. */
  private static final class Replay {
    private final TransactionSender sender;
    private final DeltaBatcher batcher;

    Replay(TransactionSender.TxnSink sink, long from, int maxKeys, long maxBytes) {
      sender = new TransactionSender(sink);
      batcher = new DeltaBatcher(from, maxKeys, maxBytes, sender::send);
    }

    void apply(List<DeltaEvent> events, String source) throws RestoreException {
      batcher.apply(events, source);
    }

    long finish() throws RestoreException {
      batcher.finish("the last delta");
      return sender.finish();
    }

    long sourceRevision() {
      return batcher.sourceRevision();
    }
  }


  /** What the transactions did to a key/value map, and each transaction's keys. */
  private final Map<String, String> content = new TreeMap<>();
  private final List<List<String>> transactions = new ArrayList<>();
  private long revision = 100;

  private CompletableFuture<Long> commit(List<DeltaEvent> events) {
    List<String> keys = new ArrayList<>();
    for (DeltaEvent e : events) {
      String key = new String(e.key(), StandardCharsets.UTF_8);
      assertThat(keys).as("a key twice in one transaction").doesNotContain(key);
      keys.add(key);
      if (e.isDelete()) {
        content.remove(key);
      } else {
        content.put(key, new String(e.value(), StandardCharsets.UTF_8));
      }
    }
    transactions.add(keys);
    return CompletableFuture.completedFuture(++revision);
  }

  private static DeltaEvent put(String key, String value, long rev) {
    return DeltaEvent.put(key.getBytes(StandardCharsets.UTF_8),
        value.getBytes(StandardCharsets.UTF_8), rev, rev, 1, 0, Instant.EPOCH);
  }

  private static DeltaEvent delete(String key, long rev) {
    return DeltaEvent.delete(key.getBytes(StandardCharsets.UTF_8), rev, Instant.EPOCH);
  }

  @Test
  void theLastEventPerKeyWinsWithDeletesAndPutsKept() throws Exception {
    content.put("gone", "old");
    content.put("kept", "old");
    Replay applier = new Replay(this::commit, 10, 1000, 1 << 20);

    applier.apply(List.of(put("a", "1", 11), put("gone", "x", 12), put("a", "2", 13),
        delete("b", 14)), "delta 1");
    applier.apply(List.of(put("b", "back", 15), delete("gone", 16), delete("a", 17),
        put("a", "3", 18), put("c", "1", 19), delete("c", 20)), "delta 2");
    long after = applier.finish();

    assertThat(content).containsExactly(Map.entry("a", "3"), Map.entry("b", "back"),
        Map.entry("kept", "old"));
    assertThat(transactions).hasSize(1);
    assertThat(after).isEqualTo(101);
    assertThat(applier.sourceRevision()).isEqualTo(20);
  }

  @Test
  void batchesSplitAtTheKeyLimitAndApplyInOrder() throws Exception {
    Replay applier = new Replay(this::commit, 0, 2, 1 << 20);
    List<DeltaEvent> events = new ArrayList<>();
    for (int rev = 1; rev <= 7; rev++) {
      events.add(put("k" + (rev % 3), "v" + rev, rev));
    }
    applier.apply(events, "delta");
    applier.finish();

    assertThat(transactions).containsExactly(List.of("k1", "k2"), List.of("k0", "k1"),
        List.of("k2", "k0"), List.of("k1"));
    assertThat(content).containsExactly(Map.entry("k0", "v6"), Map.entry("k1", "v7"),
        Map.entry("k2", "v5"));
  }

  @Test
  void eventsOfOneRevisionStayInOneTransaction() throws Exception {
    Replay applier = new Replay(this::commit, 0, 1, 1 << 20);
    applier.apply(List.of(put("x", "1", 1), put("y", "1", 1), put("z", "1", 2)), "delta");
    applier.finish();
    assertThat(transactions).containsExactly(List.of("x", "y"), List.of("z"));
  }

  @Test
  void revisionsTheFullSnapshotOrAnEarlierDeltaHoldAreSkipped() throws Exception {
    Replay applier = new Replay(this::commit, 10, 1000, 1 << 20);
    applier.apply(List.of(put("old", "x", 9), put("a", "1", 10), put("a", "2", 11),
        put("b", "1", 12)), "delta 1");
    applier.apply(List.of(put("b", "stale", 12), put("c", "1", 13)), "overlapping delta 2");
    applier.finish();
    assertThat(content).containsExactly(Map.entry("a", "2"), Map.entry("b", "1"),
        Map.entry("c", "1"));
  }

  /** A transaction that completes only when the applier waits for it. */
  private static final class CompletesWhenAwaited extends CompletableFuture<Long> {
    @Override
    public Long get(long timeout, TimeUnit unit) throws InterruptedException,
        java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
      complete(0L);
      return super.get(timeout, unit);
    }
  }

  @Test
  void twoBatchesWithoutCommonKeysAreInFlightTogetherOthersWait() throws Exception {
    List<Long> inFlightAtCommit = new ArrayList<>();
    List<CompletableFuture<Long>> pending = new ArrayList<>();
    Replay applier = new Replay(events -> {
      inFlightAtCommit.add(pending.stream().filter(f -> !f.isDone()).count());
      CompletableFuture<Long> txn = new CompletesWhenAwaited();
      pending.add(txn);
      return txn;
    }, 0, 2, 1 << 20);

    applier.apply(List.of(put("a", "1", 1), put("b", "1", 2), put("c", "1", 3),
        put("d", "1", 4), put("c", "2", 5), put("e", "1", 6), put("f", "1", 7),
        put("g", "1", 8)), "delta");
    applier.finish();

    assertThat(inFlightAtCommit).as("transactions in flight when each batch was committed")
        .containsExactly(0L, 1L, 0L, 1L);
    assertThat(pending).allMatch(CompletableFuture::isDone);
  }

  @Test
  void aGapStopsTheReplayAndNamesTheMissingRevisions() throws Exception {
    Replay applier = new Replay(this::commit, 10, 1000, 1 << 20);
    applier.apply(List.of(put("a", "1", 11)), "delta 1");
    assertThatThrownBy(() -> applier.apply(List.of(put("b", "1", 15)), "Incr-15-20"))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("missing revisions 12..14 before Incr-15-20")
        .hasMessageContaining("the data directory was left unchanged");
  }

  @Test
  void aRefusedTransactionStopsTheReplay() throws Exception {
    Replay applier = new Replay(
        events -> CompletableFuture.failedFuture(new IllegalStateException("too many ops")),
        0, 1, 1 << 20);
    applier.apply(List.of(put("a", "1", 1), put("b", "1", 2)), "Incr-1-2");
    assertThatThrownBy(applier::finish)
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("cannot replay the events up to Incr-1-2")
        .hasMessageContaining("too many ops");
  }

  @Test
  void aPointInTimeReplayTakesNoEventAfterItsRevision() throws Exception {
    List<List<String>> batches = new ArrayList<>();
    DeltaBatcher batcher = new DeltaBatcher(10, 12, 1000, 1 << 20, batch -> batches.add(
        batch.events().stream().map(e -> new String(e.key(), StandardCharsets.UTF_8)
            + "=" + new String(e.value(), StandardCharsets.UTF_8)).toList()));

    batcher.apply(List.of(put("a", "1", 11), put("a", "2", 12), put("b", "3", 12),
        put("a", "after", 13), delete("b", 14)), "Incr-00000011-00000014");
    batcher.finish("Incr-00000011-00000014");

    assertThat(batches).containsExactly(List.of("a=2", "b=3"));
    assertThat(batcher.sourceRevision()).isEqualTo(12);
  }
}
