package cloud.gardener.druid.agent.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.store.Snapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

/**
 * The resources {@code lzw/*.Z} were written by Go's {@code compress/lzw} (LSB, literal width
 * 8, as etcd-backup-restore's lzw policy does) from the inputs generated here with the same
 * linear congruential generator.
 */
class LzwInputStreamTest {

  private static final class Lcg {
    private int x;

    Lcg(int seed) {
      x = seed;
    }

    long next() {
      x = x * 1664525 + 1013904223;
      return Integer.toUnsignedLong(x);
    }
  }

  static byte[] text(int n) {
    String[] words = {"etcd ", "kube ", "pod ", "node ", "lease ", "/registry/", "\n",
        "{\"kind\":\"Pod\"}"};
    Lcg lcg = new Lcg(1);
    StringBuilder b = new StringBuilder();
    while (b.length() < n) {
      long x = lcg.next();
      b.append(words[(int) ((x >>> 24) % words.length)]);
      if (((x >>> 8) & 7) == 0) {
        b.append((char) ('0' + (x >>> 12) % 10));
      }
    }
    return Arrays.copyOf(b.toString().getBytes(StandardCharsets.UTF_8), n);
  }

  static byte[] random(int n) {
    Lcg lcg = new Lcg(7);
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (lcg.next() >>> 24);
    }
    return b;
  }

  static byte[] runs() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes("a".repeat(5000).getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < 2000; i++) {
      b.writeBytes("ab".repeat(i % 7 + 1).getBytes(StandardCharsets.US_ASCII));
      b.write('b');
    }
    return b.toByteArray();
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = LzwInputStreamTest.class.getResourceAsStream("/lzw/" + name)) {
      return in.readAllBytes();
    }
  }

  private static byte[] decode(byte[] compressed) throws IOException {
    try (InputStream in = new LzwInputStream(new ByteArrayInputStream(compressed))) {
      return in.readAllBytes();
    }
  }

  @Test
  void readsWhatGosCompressLzwWrote() throws Exception {
    assertThat(decode(resource("text.Z"))).isEqualTo(text(300_000));
    assertThat(decode(resource("random.Z"))).as("a full table and clear codes")
        .isEqualTo(random(70_000));
    assertThat(decode(resource("runs.Z"))).as("codes used as they are defined")
        .isEqualTo(runs());
    assertThat(decode(resource("empty.Z"))).isEmpty();
  }

  @Test
  void upstreamLzwSnapshotNamesAreReadWithIt() throws Exception {
    Snapshot delta = Snapshot.parse("Incr-00000101-00000150-1714557620.Z").orElseThrow();
    try (InputStream in = Compressions.decompress(delta,
        new ByteArrayInputStream(resource("runs.Z")))) {
      assertThat(in.readAllBytes()).isEqualTo(runs());
    }
  }

  @Test
  void aTruncatedStreamIsAnEndOfFileError() throws Exception {
    byte[] whole = resource("text.Z");
    assertThatThrownBy(() -> decode(Arrays.copyOf(whole, whole.length / 2)))
        .isInstanceOf(EOFException.class).hasMessageContaining("without its end code");
  }

  @Test
  void anImpossibleCodeIsAFormatError() {
    // 9-bit codes, LSB first: 'a' (97), then 300 while the next free code is 258
    int stream = 97 | 300 << 9;
    byte[] bytes = {(byte) stream, (byte) (stream >>> 8), (byte) (stream >>> 16)};
    assertThatThrownBy(() -> decode(bytes)).isInstanceOf(ZipException.class)
        .hasMessageContaining("invalid LZW code 300");
  }
}
