package cloud.gardener.druid.agent.snapshot;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Passes an etcd snapshot stream through unchanged while checking its trailer: etcd ends
 * every snapshot with the SHA-256 of the database bytes before it. Holds back only the last
 * 32 bytes, so any size streams through in constant memory.
 */
public final class EtcdSnapshotHash extends FilterOutputStream {

  public static final int TRAILER = 32;

  private final MessageDigest digest = sha256();
  private final byte[] tail = new byte[TRAILER];
  private int tailLength;
  private long total;

  public EtcdSnapshotHash(OutputStream out) {
    super(out);
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    total += len;
    int combined = tailLength + len;
    if (combined <= TRAILER) {
      System.arraycopy(b, off, tail, tailLength, len);
      tailLength = combined;
      return;
    }
    int release = combined - TRAILER;
    int fromTail = Math.min(release, tailLength);
    digest.update(tail, 0, fromTail);
    digest.update(b, off, release - fromTail);
    byte[] next = new byte[TRAILER];
    int keepTail = tailLength - fromTail;
    System.arraycopy(tail, fromTail, next, 0, keepTail);
    System.arraycopy(b, off + len - (TRAILER - keepTail), next, keepTail, TRAILER - keepTail);
    System.arraycopy(next, 0, tail, 0, TRAILER);
    tailLength = TRAILER;
  }

  public long bytes() {
    return total;
  }

  /** Throws unless the stream ended with the SHA-256 of everything before the trailer. */
  public void verify(String what) throws SnapshotIntegrityException {
    if (tailLength < TRAILER) {
      throw new SnapshotIntegrityException(what + " is truncated: only " + total + " bytes");
    }
    byte[] actual = digest.digest();
    if (!Arrays.equals(actual, tail)) {
      throw new SnapshotIntegrityException(what + " failed its SHA-256 check: expected "
          + HexFormat.of().formatHex(tail) + ", computed " + HexFormat.of().formatHex(actual)
          + " over " + (total - TRAILER) + " bytes");
    }
  }
}
