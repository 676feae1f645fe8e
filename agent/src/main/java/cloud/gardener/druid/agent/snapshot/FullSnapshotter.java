package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams etcd's snapshot (jetcd's Maintenance snapshot stream) through the hash check and
 * gzip straight into the store: nothing is staged on disk and only buffers are in memory.
 * The name carries the revision read just before the stream starts; the database may hold a
 * few revisions more, which a restore accounts for.
 */
public final class FullSnapshotter {

  private static final Logger LOG = LoggerFactory.getLogger(FullSnapshotter.class);

  private final MemberClient etcd;
  private final SnapshotStore store;
  private final SnapshotCompression compression;
  private final Clock clock;
  private final Duration timeout;
  private final SnapshotProgressMeter progress;

  public FullSnapshotter(MemberClient etcd, SnapshotStore store,
      SnapshotCompression compression, Clock clock,
      Duration timeout) {
    this(etcd, store, compression, clock, timeout, new SnapshotProgressMeter(clock));
  }

  /** Counts the bytes read from etcd into {@code progress} (of etcd's database size). */
  public FullSnapshotter(MemberClient etcd, SnapshotStore store,
      SnapshotCompression compression, Clock clock, Duration timeout,
      SnapshotProgressMeter progress) {
    this.progress = progress;
    this.etcd = etcd;
    this.store = store;
    this.compression = compression;
    this.clock = clock;
    this.timeout = timeout;
  }

  public Snapshot take(boolean isFinal) throws IOException, EtcdException {
    long revision = etcd.revision();
    return write(Snapshot.full(0, revision, clock.instant(), compression.format(), isFinal));
  }

  /**
   * Streams etcd's database into the store under the name {@code snapshot} gives (its
   * revision, time and compression chosen by the caller, e.g. a compacted backup named after
   * the last revision it covers).
   */
  public Snapshot write(Snapshot snapshot) throws IOException {
    if (snapshot.compression() != compression.format()) {
      throw new IllegalArgumentException("snapshot " + snapshot + " is not named for "
          + compression.format() + " compression");
    }
    long started = System.nanoTime();
    long[] bytes = new long[1];
    progress.start(SnapshotProgressMeter.Kind.FULL, databaseSize());
    try {
      store.put(snapshot, out -> bytes[0] = stream(snapshot, out));
    } finally {
      progress.finish();
    }
    LOG.info("full snapshot {} written to {}: {} bytes in {} ms", snapshot, store.location(),
        bytes[0], (System.nanoTime() - started) / 1_000_000);
    return snapshot;
  }

  private long stream(Snapshot snapshot, OutputStream out) throws IOException {
    try (OutputStream compressed = Compressions.compress(compression, out)) {
      EtcdSnapshotHash hashed = new EtcdSnapshotHash(compressed);
      awaitSnapshot(progress.counting(hashed));
      hashed.verify("the snapshot stream from etcd");
      return hashed.bytes();
    }
  }

  /** The estimate of the snapshot's size; 0 (unknown) when etcd does not say. */
  private long databaseSize() {
    try {
      return etcd.status().dbSizeBytes();
    } catch (EtcdException e) {
      LOG.debug("no database size for the snapshot's progress: {}", e.toString());
      return 0;
    }
  }

  private void awaitSnapshot(OutputStream out) throws IOException {
    var future = etcd.client().getMaintenanceClient().snapshot(out);
    try {
      future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IOException("etcd's snapshot stream failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new IOException("etcd's snapshot stream did not finish within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      throw new IOException("interrupted during a full snapshot", e);
    }
  }
}
