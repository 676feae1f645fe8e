package cloud.gardener.druid.agent.util;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads its source on a thread of its own, ahead of the reader, through a few fixed buffers
 * (memory stays at {@code chunks * chunkSize}): a download that decompresses overlaps with
 * whatever the reader does with the bytes (hashing, writing). A failure of the source reaches
 * the reader as the same exception, after the bytes read before it.
 */
public final class ReadAheadInputStream extends InputStream {

  private record Chunk(byte[] data, int length, Throwable failure) {
    static final Chunk END = new Chunk(new byte[0], -1, null);
  }

  private final InputStream source;
  private final BlockingQueue<Chunk> filled;
  private final BlockingQueue<byte[]> free;
  private final Thread reader;
  private volatile boolean closed;
  private Chunk current;
  private int position;

  public ReadAheadInputStream(InputStream source, int chunks, int chunkSize, String name) {
    this.source = source;
    this.filled = new ArrayBlockingQueue<>(chunks + 1);
    this.free = new ArrayBlockingQueue<>(chunks);
    for (int i = 0; i < chunks; i++) {
      free.add(new byte[chunkSize]);
    }
    this.reader = new Thread(this::readAll, name);
    reader.setDaemon(true);
    reader.start();
  }

  private void readAll() {
    try {
      while (!closed) {
        byte[] buffer = free.poll(100, TimeUnit.MILLISECONDS);
        if (buffer == null) {
          continue;
        }
        int n = source.readNBytes(buffer, 0, buffer.length);
        if (n == 0) {
          filled.put(Chunk.END);
          return;
        }
        filled.put(new Chunk(buffer, n, null));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException | Error e) {
      filled.offer(new Chunk(new byte[0], -1, e));
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("stream closed");
    }
    if (len == 0) {
      return 0;
    }
    if (current == null || position == current.length()) {
      if (current != null && current.length() > 0) {
        free.offer(current.data());
      }
      current = next();
      position = 0;
    }
    if (current.length() < 0) {
      return -1;
    }
    int n = Math.min(len, current.length() - position);
    System.arraycopy(current.data(), position, b, off, n);
    position += n;
    return n;
  }

  private Chunk next() throws IOException {
    Chunk chunk;
    try {
      chunk = filled.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading ahead");
    }
    if (chunk.failure() != null) {
      filled.offer(chunk);
      throw rethrow(chunk.failure());
    }
    if (chunk.length() < 0) {
      filled.offer(chunk);
    }
    return chunk;
  }

  private static IOException rethrow(Throwable failure) {
    if (failure instanceof IOException io) {
      return io;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    throw (Error) failure;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    filled.clear();
    try {
      source.close();
    } finally {
      try {
        reader.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
