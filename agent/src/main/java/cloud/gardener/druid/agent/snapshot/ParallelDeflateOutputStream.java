package cloud.gardener.druid.agent.snapshot;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Checksum;
import java.util.zip.Deflater;

/**
 * Writes one gzip member (RFC 1952) or one zlib stream (RFC 1950) whose deflate data is
 * compressed on several threads: the input is cut into blocks, each block is deflated on its
 * own with the previous 32 KiB of input as its dictionary and ended by a sync flush (so the
 * blocks join into one valid deflate stream and lose almost nothing of the ratio), the last
 * block ends the stream. The checksum (CRC-32 or Adler-32) is computed on the writing thread,
 * in order. Memory stays bounded: at most {@code 2 * threads} blocks are in flight, and the
 * writer waits for the oldest before it starts another. Any reader of gzip or zlib reads the
 * result; nothing is different from a single-threaded stream but the flush points.
 */
public final class ParallelDeflateOutputStream extends OutputStream {

  /** The container around the deflate data. */
  public enum Format { GZIP, ZLIB }

  static final int DEFAULT_BLOCK = 1 << 20;
  private static final int WINDOW = 32 * 1024;

  private final OutputStream out;
  private final Format format;
  private final int level;
  private final int threads;
  private final int blockSize;
  private final Checksum checksum;
  private final Deque<Future<byte[]>> inFlight = new ArrayDeque<>();
  private ExecutorService pool;
  private byte[] block;
  private int length;
  private byte[] dictionary;
  private long total;
  private boolean closed;

  public ParallelDeflateOutputStream(OutputStream out, Format format, int level, int threads)
      throws IOException {
    this(out, format, level, threads, DEFAULT_BLOCK);
  }

  ParallelDeflateOutputStream(OutputStream out, Format format, int level, int threads,
      int blockSize) throws IOException {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException("compression level must be 0..9, not " + level);
    }
    this.out = out;
    this.format = format;
    this.level = level;
    this.threads = Math.max(1, threads);
    this.blockSize = Math.max(blockSize, WINDOW);
    this.checksum = format == Format.GZIP ? new CRC32() : new Adler32();
    this.block = new byte[this.blockSize];
    writeHeader();
  }

  private void writeHeader() throws IOException {
    if (format == Format.GZIP) {
      // magic, deflate, no flags, no mtime, no extra flags, OS unknown
      out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
    } else {
      int cmf = 0x78; // deflate, 32 KiB window
      int flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
      int flg = flevel << 6;
      flg += 31 - ((cmf << 8) + flg) % 31;
      out.write(new byte[] {(byte) cmf, (byte) flg});
    }
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("stream closed");
    }
    checksum.update(b, off, len);
    total += len;
    while (len > 0) {
      int n = Math.min(len, block.length - length);
      System.arraycopy(b, off, block, length, n);
      length += n;
      off += n;
      len -= n;
      if (length == block.length) {
        submitBlock();
      }
    }
  }

  private void submitBlock() throws IOException {
    while (inFlight.size() >= 2 * threads) {
      writeOldest();
    }
    byte[] input = block;
    int inputLength = length;
    byte[] previous = dictionary;
    dictionary = Arrays.copyOfRange(input, inputLength - WINDOW, inputLength);
    if (pool == null) {
      pool = Executors.newFixedThreadPool(threads, r -> {
        Thread t = new Thread(r, "deflate");
        t.setDaemon(true);
        return t;
      });
    }
    inFlight.add(pool.submit(() -> deflate(input, inputLength, previous, level, false)));
    block = new byte[blockSize];
    length = 0;
  }

  /** Deflates one block; all but the last end on a byte boundary with a sync flush. */
  static byte[] deflate(byte[] input, int length, byte[] dictionary, int level, boolean last) {
    Deflater deflater = new Deflater(level, true);
    try {
      if (dictionary != null) {
        deflater.setDictionary(dictionary);
      }
      deflater.setInput(input, 0, length);
      if (last) {
        deflater.finish();
      }
      byte[] output = new byte[length + length / 8 + 1024];
      int written = 0;
      while (true) {
        if (written == output.length) {
          output = Arrays.copyOf(output, output.length * 2);
        }
        int space = output.length - written;
        int n = deflater.deflate(output, written, space,
            last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
        written += n;
        if (last ? deflater.finished() : n < space) {
          return Arrays.copyOf(output, written);
        }
      }
    } finally {
      deflater.end();
    }
  }

  private void writeOldest() throws IOException {
    Future<byte[]> oldest = inFlight.remove();
    try {
      out.write(oldest.get());
    } catch (ExecutionException e) {
      throw new IOException("compression failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while compressing");
    }
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  /** Compresses what is left, writes the trailer and closes the underlying stream. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      while (!inFlight.isEmpty()) {
        writeOldest();
      }
      out.write(deflate(block, length, dictionary, level, true));
      writeTrailer();
      out.close();
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }

  private void writeTrailer() throws IOException {
    long sum = checksum.getValue();
    if (format == Format.GZIP) {
      writeIntLittleEndian(sum);
      writeIntLittleEndian(total);
    } else {
      out.write(new byte[] {(byte) (sum >>> 24), (byte) (sum >>> 16), (byte) (sum >>> 8),
          (byte) sum});
    }
  }

  private void writeIntLittleEndian(long value) throws IOException {
    out.write(new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16),
        (byte) (value >>> 24)});
  }
}
