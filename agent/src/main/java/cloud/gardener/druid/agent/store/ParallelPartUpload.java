package cloud.gardener.druid.agent.store;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Cuts what is written into parts of a fixed size and uploads up to {@code parallel} of them at
 * once, holding at most {@code parallel + 1} parts in memory (the memory budget: one being
 * filled, the others in flight); writing blocks while the budget is spent. {@link #close()}
 * uploads the last part, waits for all and completes the object, which only then becomes
 * visible; {@link #abort()} discards it. The first failed part fails the next write or the
 * close.
 */
final class ParallelPartUpload extends OutputStream {

  /** The store's side of a chunked upload. */
  interface Parts {
    /** Uploads part {@code number} (1-based); called on several threads at once. */
    void upload(int number, byte[] data, int length) throws IOException;

    /** Makes the object of parts 1..{@code count} visible; {@code count} may be 0. */
    void complete(int count) throws IOException;

    /** Content that fits into the first part, as one request; never after {@link #upload}. */
    void single(byte[] data, int length) throws IOException;

    /** Discards what was uploaded (best effort; invisible anyway). */
    void abort();
  }

  private final Parts parts;
  private final int partSize;
  private final Semaphore budget;
  private final ExecutorService pool;
  private final List<Future<?>> uploads = new ArrayList<>();
  private byte[] part;
  private int filled;
  private int count;
  private boolean done;

  ParallelPartUpload(Parts parts, int partSize, int parallel, String threadName) {
    this.parts = parts;
    this.partSize = partSize;
    this.budget = new Semaphore(parallel);
    this.pool = Executors.newFixedThreadPool(parallel, r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    this.part = new byte[partSize];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (done) {
      throw new IOException("the upload is already finished");
    }
    while (len > 0) {
      int n = Math.min(len, partSize - filled);
      System.arraycopy(b, off, part, filled, n);
      filled += n;
      off += n;
      len -= n;
      if (filled == partSize) {
        send();
      }
    }
  }

  private void send() throws IOException {
    failFast();
    try {
      budget.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for an upload slot", e);
    }
    int number = ++count;
    byte[] data = part;
    int length = filled;
    uploads.add(pool.submit(() -> {
      try {
        parts.upload(number, data, length);
        return null;
      } finally {
        budget.release();
      }
    }));
    part = new byte[partSize];
    filled = 0;
  }

  /** Throws the failure of a part that already ended. */
  private void failFast() throws IOException {
    for (Future<?> f : uploads) {
      if (f.isDone()) {
        await(f);
      }
    }
    uploads.removeIf(Future::isDone);
  }

  private static void await(Future<?> f) throws IOException {
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while uploading", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(cause);
    }
  }

  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    try {
      if (count == 0) {
        parts.single(part, filled);
      } else {
        if (filled > 0) {
          send();
        }
        for (Future<?> f : uploads) {
          await(f);
        }
        parts.complete(count);
      }
      done = true;
      pool.shutdown();
    } catch (IOException | RuntimeException | Error e) {
      abort();
      throw e;
    }
  }

  /**
   * Discards the upload; nothing becomes visible. Parts not started are cancelled, parts in
   * flight are let finish (an interrupted request may have been carried out without its
   * answer, e.g. a multipart upload created that nobody would abort).
   */
  void abort() {
    if (done) {
      return;
    }
    done = true;
    uploads.forEach(f -> f.cancel(false));
    pool.shutdown();
    try {
      pool.awaitTermination(10, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    parts.abort();
  }
}
