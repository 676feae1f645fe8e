package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Replays delta events into a (temporary) etcd in large transactions instead of one per
 * original revision:
 * <ul>
 *   <li>revisions are checked for continuity first: a revision at or below the last one taken
 *   is skipped (the full snapshot or an overlapping delta holds it), a revision that does not
 *   follow it is a gap and stops the restore;</li>
 *   <li>events are collapsed per key, last write wins (a delete after a put stays a delete, a
 *   put after a delete stays a put), since etcd refuses a transaction naming a key twice; the
 *   final content is the source's, whatever state the database started from (replaying an
 *   event the database already holds changes nothing);</li>
 *   <li>a batch is committed when it passes {@code maxKeys} or {@code maxBytes}, while the next
 *   one is built; two batches are in flight only when they share no key (then their order
 *   does not matter), otherwise a batch waits for the previous ones.</li>
 * </ul>
 * Keys therefore get new modification revisions and versions; the content is exact.
 */
final class DeltaApplier {

  /** Where transactions go; answers the revision after the transaction. */
  @FunctionalInterface
  interface TxnSink {
    CompletableFuture<Long> commit(List<DeltaEvent> lastEventPerKey);
  }

  private static final long PER_EVENT_OVERHEAD = 16;

  private final TxnSink sink;
  private final int maxKeys;
  private final long maxBytes;
  private final Map<ByteBuffer, DeltaEvent> batch = new LinkedHashMap<>();
  private long batchBytes;
  private long revision;
  private long events;
  private long transactions;
  private final Deque<InFlight> inFlight = new ArrayDeque<>();
  private long lastRevision;

  private record InFlight(CompletableFuture<Long> revision, Set<ByteBuffer> keys, String source) {
  }

  /** Transactions in flight at once when their keys are disjoint. */
  static final int MAX_IN_FLIGHT = 2;

  /** {@code fromRevision}: the revision the database holds at least (the full snapshot's). */
  DeltaApplier(TxnSink sink, long fromRevision, int maxKeys, long maxBytes) {
    this.sink = sink;
    this.revision = fromRevision;
    this.maxKeys = maxKeys;
    this.maxBytes = maxBytes;
  }

  /** The last source revision taken from the deltas so far. */
  long sourceRevision() {
    return revision;
  }

  long transactions() {
    return transactions;
  }

  long events() {
    return events;
  }

  void apply(List<DeltaEvent> deltaEvents, String source) throws RestoreException {
    int i = 0;
    while (i < deltaEvents.size()) {
      long eventRevision = deltaEvents.get(i).modRevision();
      int end = i;
      while (end < deltaEvents.size() && deltaEvents.get(end).modRevision() == eventRevision) {
        end++;
      }
      if (eventRevision > revision) {
        if (eventRevision != revision + 1) {
          throw new RestoreException("missing revisions " + (revision + 1) + ".."
              + (eventRevision - 1) + " before " + source
              + "; the data directory was left unchanged");
        }
        for (DeltaEvent event : deltaEvents.subList(i, end)) {
          add(event);
        }
        revision = eventRevision;
        if (batch.size() >= maxKeys || batchBytes >= maxBytes) {
          send(source);
        }
      }
      i = end;
    }
  }

  private void add(DeltaEvent event) {
    DeltaEvent previous = batch.put(ByteBuffer.wrap(event.key()), event);
    if (previous != null) {
      batchBytes -= size(previous);
    }
    batchBytes += size(event);
    events++;
  }

  private static long size(DeltaEvent event) {
    return event.key().length + event.value().length + PER_EVENT_OVERHEAD;
  }

  /** Commits what is left and waits for it; returns the database's revision afterwards. */
  long finish() throws RestoreException {
    send("the last delta");
    while (!inFlight.isEmpty()) {
      awaitOldest();
    }
    return lastRevision;
  }

  private void send(String source) throws RestoreException {
    if (batch.isEmpty()) {
      return;
    }
    Set<ByteBuffer> keys = new HashSet<>(batch.keySet());
    while (!inFlight.isEmpty()
        && (inFlight.size() >= MAX_IN_FLIGHT || sharesKeys(keys))) {
      awaitOldest();
    }
    List<DeltaEvent> ops = new ArrayList<>(batch.values());
    batch.clear();
    batchBytes = 0;
    transactions++;
    inFlight.add(new InFlight(sink.commit(ops), keys, source));
  }

  private boolean sharesKeys(Set<ByteBuffer> keys) {
    for (InFlight other : inFlight) {
      for (ByteBuffer key : keys) {
        if (other.keys().contains(key)) {
          return true;
        }
      }
    }
    return false;
  }

  private void awaitOldest() throws RestoreException {
    InFlight oldest = inFlight.peek();
    try {
      lastRevision = Math.max(lastRevision, oldest.revision().get(5, TimeUnit.MINUTES));
      inFlight.remove();
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null
          ? e.getCause() : e;
      throw new RestoreException("cannot replay the events up to " + oldest.source()
          + " into the temporary etcd: " + cause + "; the data directory was left unchanged",
          cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RestoreException("interrupted while replaying " + oldest.source(), e);
    }
  }
}
