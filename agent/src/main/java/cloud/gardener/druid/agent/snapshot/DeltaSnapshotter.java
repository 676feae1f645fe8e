package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Buffers every event of a watch over all keys and writes the buffer as a delta snapshot
 * when {@link #flush()} is called (each delta period, or as soon as the buffer passes the
 * memory limit: {@code onMemoryLimit} asks for that). A failed write keeps the events for the
 * next attempt. A watch that fails for good (its revision was compacted) is reported by
 * {@link #failure()}: the caller then takes a full snapshot and starts a new watcher.
 */
public final class DeltaSnapshotter implements AutoCloseable {

  private static final ByteSequence ALL = ByteSequence.from(new byte[] {0});

  private final SnapshotStore store;
  private final SnapshotCompression compression;
  private final Clock clock;
  private final long memoryLimit;
  private final Runnable onMemoryLimit;
  private final Watch.Watcher watcher;
  private final SnapshotProgressMeter progress;
  private List<DeltaEvent> buffer = new ArrayList<>();
  private long bufferedBytes;
  private volatile long lastStoredRevision;
  private volatile Throwable failure;

  public DeltaSnapshotter(MemberClient etcd, SnapshotStore store,
      SnapshotCompression compression, Clock clock,
      long memoryLimit, long fromRevision, Runnable onMemoryLimit) {
    this(etcd, store, compression, clock, memoryLimit, fromRevision, onMemoryLimit,
        new SnapshotProgressMeter(clock));
  }

  /** Counts the bytes of each delta written into {@code progress} (of the buffered events). */
  public DeltaSnapshotter(MemberClient etcd, SnapshotStore store,
      SnapshotCompression compression, Clock clock,
      long memoryLimit, long fromRevision, Runnable onMemoryLimit, SnapshotProgressMeter progress) {
    this.progress = progress;
    this.store = store;
    this.compression = compression;
    this.clock = clock;
    this.memoryLimit = memoryLimit;
    this.onMemoryLimit = onMemoryLimit;
    this.lastStoredRevision = fromRevision - 1;
    WatchOption option = WatchOption.builder().withRange(ALL).withRevision(fromRevision).build();
    this.watcher = etcd.client().getWatchClient().watch(ALL, option,
        Watch.listener(this::onResponse, this::onError));
  }

  private void onResponse(WatchResponse response) {
    Instant now = clock.instant();
    boolean overLimit;
    synchronized (this) {
      for (WatchEvent event : response.getEvents()) {
        DeltaEvent delta = convert(event, now);
        buffer.add(delta);
        bufferedBytes += delta.approximateSize();
      }
      overLimit = bufferedBytes > memoryLimit;
    }
    if (overLimit) {
      onMemoryLimit.run();
    }
  }

  private void onError(Throwable error) {
    failure = error;
  }

  private static DeltaEvent convert(WatchEvent event, Instant time) {
    KeyValue kv = event.getKeyValue();
    if (event.getEventType() == WatchEvent.EventType.DELETE) {
      return DeltaEvent.delete(kv.getKey().getBytes(), kv.getModRevision(), time);
    }
    return DeltaEvent.put(kv.getKey().getBytes(), kv.getValue().getBytes(),
        kv.getCreateRevision(), kv.getModRevision(), kv.getVersion(), kv.getLease(), time);
  }

  /** Why the watch stopped for good, if it did. */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  public long lastStoredRevision() {
    return lastStoredRevision;
  }

  public synchronized long bufferedBytes() {
    return bufferedBytes;
  }

  /** Writes the buffered events as one delta; empty when there were none. */
  public Optional<Snapshot> flush() throws IOException {
    List<DeltaEvent> events;
    long bytes;
    synchronized (this) {
      events = buffer;
      bytes = bufferedBytes;
      buffer = new ArrayList<>();
      bufferedBytes = 0;
    }
    if (events.isEmpty()) {
      return Optional.empty();
    }
    Snapshot delta = Snapshot.delta(events.get(0).modRevision(),
        events.get(events.size() - 1).modRevision(), clock.instant(),
        compression.format());
    progress.start(SnapshotProgressMeter.Kind.DELTA, bytes);
    try {
      store.put(delta, out -> {
        try (OutputStream compressed = Compressions.compress(compression, out)) {
          DeltaFormat.write(events, progress.counting(compressed));
        }
      });
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        events.addAll(buffer);
        buffer = events;
        bufferedBytes += bytes;
      }
      throw e;
    } finally {
      progress.finish();
    }
    lastStoredRevision = delta.endRevision();
    return Optional.of(delta);
  }

  @Override
  public void close() {
    watcher.close();
  }
}
