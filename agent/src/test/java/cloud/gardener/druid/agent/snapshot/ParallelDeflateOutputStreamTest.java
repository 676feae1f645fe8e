package cloud.gardener.druid.agent.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.snapshot.ParallelDeflateOutputStream.Format;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParallelDeflateOutputStreamTest {

  private static final int BLOCK = 40_000;

  /** Text-like data with repetitions across block boundaries, so dictionaries matter. */
  private static byte[] data(int size) {
    Random random = new Random(size);
    String[] words = {"apiVersion", "kind", "Pod", "metadata", "namespace", "default",
        "spec", "containers", "image", "etcd", "status", "Running", "\n", " ", ":"};
    byte[] data = new byte[size];
    int i = 0;
    while (i < size) {
      byte[] word = (random.nextInt(10) == 0 ? Integer.toString(random.nextInt(1000))
          : words[random.nextInt(words.length)]).getBytes();
      for (int j = 0; j < word.length && i < size; j++) {
        data[i++] = word[j];
      }
    }
    return data;
  }

  private static byte[] compress(byte[] data, Format format, int level, int threads,
      int chunk) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new ParallelDeflateOutputStream(bytes, format, level, threads,
        BLOCK)) {
      for (int off = 0; off < data.length; off += chunk) {
        out.write(data, off, Math.min(chunk, data.length - off));
      }
    }
    return bytes.toByteArray();
  }

  private static byte[] decompress(byte[] compressed, Format format) throws Exception {
    try (InputStream in = format == Format.GZIP
        ? new GZIPInputStream(new ByteArrayInputStream(compressed))
        : new InflaterInputStream(new ByteArrayInputStream(compressed))) {
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @CsvSource({
      "GZIP, 0, 1, 3", "GZIP, 1, 1, 3", "GZIP, 1, 2, 1000", "GZIP, 6, 3, 65536",
      "GZIP, 9, 2, 7777", "ZLIB, 1, 2, 4096", "ZLIB, 6, 1, 100000", "ZLIB, 9, 3, 123"})
  void javasReadersGetEveryByteBackAtAnySize(Format format, int level, int threads, int chunk)
      throws Exception {
    for (int size : new int[] {0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 7 * BLOCK + 12_345}) {
      byte[] data = data(size);
      assertThat(decompress(compress(data, format, level, threads, chunk), format))
          .as("%s level %d, %d bytes", format, level, size).isEqualTo(data);
    }
  }

  @Test
  void theRatioIsThatOfOneStreamAtTheSameLevel() throws Exception {
    byte[] data = data(40 * BLOCK);
    ByteArrayOutputStream single = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(single) {
      {
        def.setLevel(1);
      }
    }) {
      out.write(data);
    }
    int parallel = compress(data, Format.GZIP, 1, 2, 65536).length;
    assertThat((double) parallel).isLessThan(single.size() * 1.01);
  }

  @Test
  void theZlibHeaderNamesTheLevelAndPassesItsCheck() throws Exception {
    for (int level : new int[] {0, 1, 5, 6, 9}) {
      byte[] stream = compress(data(10), Format.ZLIB, level, 1, 10);
      assertThat(stream[0]).isEqualTo((byte) 0x78);
      assertThat(((stream[0] & 0xff) << 8 | (stream[1] & 0xff)) % 31).isZero();
    }
  }
}
