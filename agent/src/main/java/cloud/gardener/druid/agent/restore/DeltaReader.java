package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.EtcdSnapshotHash;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.util.HeapCeiling;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the deltas of a restore plan on a thread of its own - download, checksum, parse,
 * continuity check and batching ({@link DeltaBatcher}) - while the full snapshot is still
 * being restored, so that the temporary etcd only has to apply ready transactions. Batches
 * wait in a queue bounded by {@code budgetBytes}; the reader stops there until the applier
 * takes some.
 *
 * <p>The deltas are read twice: a first pass (copying each delta not on a local disk into
 * {@code copies}) only counts the transactions the batching cuts ({@link #count()}), so that
 * the full snapshot's revision can be raised by exactly the revisions the transactions do not
 * take; the second pass, over the same bytes, delivers the batches.
 */
final class DeltaReader implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaReader.class);
  private static final Object END = new Object();
  private static final long CLOSE_WAIT_MILLIS = 30_000;

  private record Failure(Exception error) {
  }

  /** What the deltas replay as: {@code transactions} transactions up to {@code lastRevision}. */
  record Count(long transactions, long lastRevision, long events) {
  }

  private final SnapshotStore store;
  private final List<Snapshot> deltas;
  private final DeltaBatcher batcher;
  private final long budgetBytes;
  private final Semaphore budget;
  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private final long fromRevision;
  private final long untilRevision;
  private final int maxKeys;
  private final long maxBytes;
  private final Path copies;
  private final CompletableFuture<Count> count = new CompletableFuture<>();

  private DeltaReader(SnapshotStore store, RestorePlan plan, int maxKeys, long maxBytes,
      long budgetBytes, Path copies) {
    this.store = store;
    this.fromRevision = plan.full().endRevision();
    this.untilRevision = plan.untilRevision();
    this.maxKeys = maxKeys;
    this.maxBytes = maxBytes;
    this.copies = copies;
    this.deltas = plan.deltas();
    this.budgetBytes = budgetBytes;
    this.budget = new Semaphore(permits(budgetBytes));
    this.batcher = new DeltaBatcher(plan.full().endRevision(), plan.untilRevision(), maxKeys,
        maxBytes, this::enqueue);
    this.thread = new Thread(this::run, "delta reader");
    this.thread.setDaemon(true);
  }

  /** {@code copies}: an empty directory for the deltas that are not on a local disk. */
  static DeltaReader start(SnapshotStore store, RestorePlan plan, int maxKeys, long maxBytes,
      long budgetBytes, Path copies) {
    DeltaReader reader = new DeltaReader(store, plan, maxKeys, maxBytes, budgetBytes, copies);
    // the batches outlive young collections; JDK 25's Serial GC would let the dead ones pile up
    HeapCeiling.watch();
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

  /** Waits for the first pass; throws what stopped it. */
  Count count() throws IOException, RestoreException {
    try {
      return count.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while counting the delta snapshots");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw (RestoreException) e.getCause();
    }
  }

  private void run() {
    try {
      List<Path> files = new ArrayList<>();
      count.complete(count(files));
      for (int i = 0; i < deltas.size(); i++) {
        batcher.apply(read(deltas.get(i), files.get(i)), deltas.get(i).fileName());
      }
      batcher.finish(deltas.get(deltas.size() - 1).fileName());
      queue.add(END);
    } catch (IOException | RestoreException e) {
      fail(e);
    } catch (RuntimeException e) {
      fail(new IOException("reading the delta snapshots failed: " + e, e));
    }
  }

  /** The first pass: adds each delta's local file to {@code files}. */
  private Count count(List<Path> files) throws IOException, RestoreException {
    long started = System.nanoTime();
    long[] transactions = {0};
    DeltaBatcher counter = new DeltaBatcher(fromRevision, untilRevision, maxKeys, maxBytes,
        batch -> transactions[0]++);
    Map<Integer, byte[]> zeros = DeltaOutline.newZeros();
    Buffer buffer = new Buffer();
    for (Snapshot delta : deltas) {
      Path file = local(delta);
      files.add(file);
      // one zero array per distinct value length: kept for one delta only, so that they add
      // up to at most that delta's own value bytes (across all deltas, values of many
      // different lengths would add up to far more than the heap)
      zeros.clear();
      counter.apply(outline(delta, file, zeros, buffer), delta.fileName());
    }
    counter.finish(deltas.get(deltas.size() - 1).fileName());
    LOG.info("counted {} transactions for {} events up to revision {} in {} ms",
        transactions[0], counter.events(), counter.sourceRevision(),
        (System.nanoTime() - started) / 1_000_000);
    return new Count(transactions[0], counter.sourceRevision(), counter.events());
  }

  private void fail(Exception e) {
    count.completeExceptionally(e);
    queue.add(new Failure(e));
  }

  /** The delta's file on a local disk: the store's own, or a copy in {@code copies}. */
  private Path local(Snapshot delta) throws IOException {
    Optional<Path> file = store.localFile(delta);
    if (file.isPresent()) {
      return file.get();
    }
    Path copy = copies.resolve(delta.fileName());
    Files.createDirectories(copies);
    try (InputStream raw = store.open(delta)) {
      Files.copy(raw, copy, StandardCopyOption.REPLACE_EXISTING);
    }
    return copy;
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

  private static List<DeltaEvent> read(Snapshot delta, Path file) throws IOException {
    return decompressed(delta, file, in -> DeltaFormat.read(in, "delta snapshot " + delta));
  }

  /**
   * The events as far as counting needs them ({@link DeltaOutline}), read into {@code buffer}
   * (reused: under the member's small heap a new array per delta cost a full collection each).
   * The SHA-256 trailer is checked by the replay's read, not here: the count is on the
   * restore's critical path, and a corrupt delta fails the restore all the same.
   */
  private static List<DeltaEvent> outline(Snapshot delta, Path file, Map<Integer, byte[]> zeros,
      Buffer buffer) throws IOException {
    int length = buffer.fill(delta, file);
    Optional<List<DeltaEvent>> outline = length >= EtcdSnapshotHash.TRAILER
        ? DeltaOutline.read(buffer.bytes, length, zeros) : Optional.empty();
    return outline.isPresent() ? outline.get()
        : DeltaFormat.read(buffer.bytes, length, "delta snapshot " + delta);
  }

  /** One array that grows to the largest delta. */
  private static final class Buffer {
    private byte[] bytes = new byte[0];

    /** Reads the delta, decompressed, into {@link #bytes}; answers its length. */
    int fill(Snapshot delta, Path file) throws IOException {
      if (bytes.length == 0) {
        bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(1 << 20,
            Files.size(file) + 1))];
      }
      return decompressed(delta, file, in -> {
        int length = 0;
        for (int n; (n = in.readNBytes(bytes, length, bytes.length - length)) > 0; ) {
          length += n;
          if (length == bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8,
                2L * bytes.length));
          }
        }
        return length;
      });
    }
  }

  /** What is read from a delta's decompressed bytes. */
  @FunctionalInterface
  private interface Reading<T> {
    T from(InputStream in) throws IOException;
  }

  /** {@code reading} over the delta's decompressed bytes; a broken compression is corruption. */
  private static <T> T decompressed(Snapshot delta, Path file, Reading<T> reading)
      throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = Compressions.decompress(delta, raw)) {
      return reading.from(in);
    } catch (ZipException | EOFException e) {
      throw new SnapshotIntegrityException(
          "delta snapshot " + delta + " is corrupt: " + e.getMessage(), e);
    }
  }

  /** Permits are KiB, so budgets beyond 2 GiB still fit an int. */
  private static int permits(long bytes) {
    return (int) Math.max(1, bytes >> 10);
  }

  /**
   * Stops the reader and waits for it (bounded): a reader still copying a delta after a
   * failed restore would recreate the work directory the restore just deleted.
   */
  @Override
  public void close() {
    thread.interrupt();
    try {
      thread.join(CLOSE_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
