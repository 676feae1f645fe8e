package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the events of consecutive deltas into a few large transactions instead of one per
 * original revision:
 * <ul>
 *   <li>revisions are checked for continuity first: a revision at or below the last one taken
 *   is skipped (the full snapshot or an overlapping delta holds it), a revision that does not
 *   follow it is a gap and stops the restore;</li>
 *   <li>events are collapsed per key, last write wins (a delete after a put stays a delete, a
 *   put after a delete stays a put), since etcd refuses a transaction naming a key twice; the
 *   final content is the source's, whatever state the database started from (replaying an
 *   event the database already holds changes nothing);</li>
 *   <li>a batch is cut when it passes {@code maxKeys} or {@code maxBytes}; the events of one
 *   revision always stay in one batch.</li>
 * </ul>
 * Keys therefore get new modification revisions and versions; the content is exact. Pure and
 * single-threaded: {@link TransactionSender} commits the batches.
 */
final class DeltaBatcher {

  /** A transaction to commit: the last event of each of its keys. */
  record Batch(List<DeltaEvent> events, Set<ByteBuffer> keys, long bytes, String source) {
  }

  /** Receives each batch once it is cut. */
  @FunctionalInterface
  interface Output {
    void accept(Batch batch) throws RestoreException;
  }

  /** Heap per event beyond its key and value: the event, the map entry, the key wrapper. */
  static final long PER_EVENT_OVERHEAD = 200;

  private final Output output;
  private final int maxKeys;
  private final long maxBytes;
  private final long untilRevision;
  private final Map<ByteBuffer, DeltaEvent> batch = new LinkedHashMap<>();
  private long batchBytes;
  private long revision;
  private long events;

  /** {@code fromRevision}: the revision the database holds at least (the full snapshot's). */
  DeltaBatcher(long fromRevision, int maxKeys, long maxBytes, Output output) {
    this(fromRevision, Long.MAX_VALUE, maxKeys, maxBytes, output);
  }

  /** Takes no event after {@code untilRevision} (a point-in-time restore). */
  DeltaBatcher(long fromRevision, long untilRevision, int maxKeys, long maxBytes,
      Output output) {
    this.untilRevision = untilRevision;
    this.revision = fromRevision;
    this.maxKeys = maxKeys;
    this.maxBytes = maxBytes;
    this.output = output;
  }

  /** The last source revision taken from the deltas so far. */
  long sourceRevision() {
    return revision;
  }

  long events() {
    return events;
  }

  void apply(List<DeltaEvent> deltaEvents, String source) throws RestoreException {
    int i = 0;
    while (i < deltaEvents.size()) {
      long eventRevision = deltaEvents.get(i).modRevision();
      if (eventRevision > untilRevision) {
        return;
      }
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
          cut(source);
        }
      }
      i = end;
    }
  }

  /** Cuts what is left into a last batch. */
  void finish(String source) throws RestoreException {
    cut(source);
  }

  private void add(DeltaEvent event) {
    DeltaEvent previous = batch.put(ByteBuffer.wrap(event.key()), event);
    if (previous != null) {
      batchBytes -= size(previous);
    }
    batchBytes += size(event);
    events++;
  }

  static long size(DeltaEvent event) {
    return event.key().length + event.value().length + PER_EVENT_OVERHEAD;
  }

  private void cut(String source) throws RestoreException {
    if (batch.isEmpty()) {
      return;
    }
    Batch cut = new Batch(new ArrayList<>(batch.values()), new HashSet<>(batch.keySet()),
        batchBytes, source);
    batch.clear();
    batchBytes = 0;
    output.accept(cut);
  }
}
