package cloud.gardener.druid.agent.snapshot;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.ZipException;

/**
 * Reads the {@code lzw} compression policy of etcd-backup-restore ({@code *.Z} objects):
 * the stream of Go's {@code compress/lzw} with LSB bit order and 8-bit literals. It has no
 * header (it is not the Unix {@code compress} format): codes start 9 bits wide and grow to
 * 12, 256 clears the table, 257 ends the stream. When the table is full no codes are added
 * until the writer clears it. Corrupt input fails with a {@link ZipException}, a stream
 * without its end code with an {@link EOFException}.
 */
final class LzwInputStream extends InputStream {

  private static final int LITERAL_WIDTH = 8;
  private static final int CLEAR = 1 << LITERAL_WIDTH;
  private static final int END = CLEAR + 1;
  private static final int MAX_WIDTH = 12;
  private static final int TABLE = 1 << MAX_WIDTH;
  private static final int NONE = -1;

  private final InputStream in;
  private final int[] prefix = new int[TABLE];
  private final byte[] suffix = new byte[TABLE];
  /** The expansion of the current code, right-aligned; at most TABLE bytes long. */
  private final byte[] expansion = new byte[TABLE + 1];
  private int start = expansion.length;
  private int width;
  /** The code the next entry gets (when the table is full: the last code, no entry). */
  private int next;
  private int overflow;
  private int last;
  private int bits;
  private int bitCount;
  private boolean ended;

  LzwInputStream(InputStream in) {
    this.in = in;
    clear();
  }

  /**
   * After a clear the first code defines nothing, yet counts: the entry the second code
   * defines is END + 1.
   */
  private void clear() {
    width = LITERAL_WIDTH + 1;
    next = END;
    overflow = 1 << width;
    last = NONE;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (start == expansion.length) {
      if (ended) {
        return -1;
      }
      decodeNext();
    }
    int n = Math.min(len, expansion.length - start);
    System.arraycopy(expansion, start, b, off, n);
    start += n;
    return n;
  }

  private void decodeNext() throws IOException {
    int code = readCode();
    if (code == CLEAR) {
      clear();
      return;
    }
    if (code == END) {
      ended = true;
      return;
    }
    if (code > next) {
      throw new ZipException("invalid LZW code " + code + " (next free code " + next + ")");
    }
    int first = expand(code);
    if (last != NONE) {
      suffix[next] = (byte) first;
      prefix[next] = last;
    }
    last = code;
    next++;
    if (next >= overflow) {
      if (width == MAX_WIDTH) {
        last = NONE;
        next--;
      } else {
        width++;
        overflow <<= 1;
      }
    }
  }

  /** Puts the expansion of {@code code} into the buffer; returns its first byte. */
  private int expand(int code) {
    int i = expansion.length;
    int c = code;
    if (code == next && last != NONE) {
      // the code being defined: the previous expansion followed by its own first byte
      int head = last;
      while (head >= CLEAR) {
        head = prefix[head];
      }
      expansion[--i] = (byte) head;
      c = last;
    }
    while (c >= CLEAR) {
      expansion[--i] = suffix[c];
      c = prefix[c];
    }
    expansion[--i] = (byte) c;
    start = i;
    return c;
  }

  private int readCode() throws IOException {
    while (bitCount < width) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the LZW stream ends without its end code");
      }
      bits |= b << bitCount;
      bitCount += 8;
    }
    int code = bits & ((1 << width) - 1);
    bits >>>= width;
    bitCount -= width;
    return code;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
