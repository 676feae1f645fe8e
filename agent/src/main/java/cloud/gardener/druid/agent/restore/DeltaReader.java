package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.zip.ZipException;

/**
 * Reads the deltas of a restore plan on a thread of its own - download, checksum, parse,
 * continuity check and batching ({@link DeltaBatcher}) - while the full snapshot is still
 * being restored, so that the temporary etcd only has to apply ready transactions. Batches
 * wait in a queue bounded by {@code budgetBytes}; the reader stops there until the applier
 * takes some.
 */
final class DeltaReader implements AutoCloseable {

  private static final Object END = new Object();

  private record Failure(Exception error) {
  }

  private final SnapshotStore store;
  private final List<Snapshot> deltas;
  private final DeltaBatcher batcher;
  private final long budgetBytes;
  private final Semaphore budget;
  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final Thread thread;

  private DeltaReader(SnapshotStore store, RestorePlan plan, int maxKeys, long maxBytes,
      long budgetBytes) {
    this.store = store;
    this.deltas = plan.deltas();
    this.budgetBytes = budgetBytes;
    this.budget = new Semaphore(permits(budgetBytes));
    this.batcher = new DeltaBatcher(plan.full().endRevision(), maxKeys, maxBytes, this::enqueue);
    this.thread = new Thread(this::run, "delta reader");
    this.thread.setDaemon(true);
  }

  static DeltaReader start(SnapshotStore store, RestorePlan plan, int maxKeys, long maxBytes,
      long budgetBytes) {
    DeltaReader reader = new DeltaReader(store, plan, maxKeys, maxBytes, budgetBytes);
    reader.thread.start();
    return reader;
  }

  /** The next batch in order, null after the last; throws what stopped the reader. */
  DeltaBatcher.Batch next() throws IOException, RestoreException {
    Object item;
    try {
      item = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for delta snapshots");
    }
    if (item == END) {
      queue.add(END);
      return null;
    }
    if (item instanceof Failure failure) {
      queue.add(failure);
      if (failure.error() instanceof IOException io) {
        throw io;
      }
      throw (RestoreException) failure.error();
    }
    DeltaBatcher.Batch batch = (DeltaBatcher.Batch) item;
    budget.release(permits(Math.min(batch.bytes(), budgetBytes)));
    return batch;
  }

  /** Valid once {@link #next()} returned null. */
  long sourceRevision() {
    return batcher.sourceRevision();
  }

  long events() {
    return batcher.events();
  }

  private void run() {
    try {
      for (Snapshot delta : deltas) {
        batcher.apply(read(delta), delta.fileName());
      }
      batcher.finish(deltas.get(deltas.size() - 1).fileName());
      queue.add(END);
    } catch (IOException | RestoreException e) {
      queue.add(new Failure(e));
    } catch (RuntimeException e) {
      queue.add(new Failure(new IOException("reading the delta snapshots failed: " + e, e)));
    }
  }

  private void enqueue(DeltaBatcher.Batch batch) throws RestoreException {
    try {
      budget.acquire(permits(Math.min(batch.bytes(), budgetBytes)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RestoreException("the restore was stopped", e);
    }
    queue.add(batch);
  }

  private List<DeltaEvent> read(Snapshot delta) throws IOException {
    try (InputStream raw = store.open(delta);
        InputStream in = Compressions.decompress(delta, raw)) {
      return DeltaFormat.read(in, "delta snapshot " + delta);
    } catch (ZipException | EOFException e) {
      throw new SnapshotIntegrityException(
          "delta snapshot " + delta + " is corrupt: " + e.getMessage(), e);
    }
  }

  /** Permits are KiB, so budgets beyond 2 GiB still fit an int. */
  private static int permits(long bytes) {
    return (int) Math.max(1, bytes >> 10);
  }

  @Override
  public void close() {
    thread.interrupt();
  }
}
