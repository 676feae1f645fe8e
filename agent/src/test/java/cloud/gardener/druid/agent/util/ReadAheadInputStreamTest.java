package cloud.gardener.druid.agent.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Random;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

class ReadAheadInputStreamTest {

  @Test
  void passesEveryByteInOrder() throws Exception {
    byte[] data = new byte[3 * 1024 * 1024 + 17];
    new Random(1).nextBytes(data);
    try (InputStream in = new ReadAheadInputStream(new ByteArrayInputStream(data), 3, 4096,
        "test")) {
      assertThat(in.readAllBytes()).isEqualTo(data);
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void aFailureOfTheSourceReachesTheReaderAsTheSameExceptionAfterTheBytesBeforeIt()
      throws Exception {
    InputStream failing = new InputStream() {
      @Override
      public int read() throws IOException {
        throw new ZipException("invalid block type");
      }
    };
    byte[] head = new byte[10_000];
    try (InputStream in = new ReadAheadInputStream(
        new SequenceInputStream(new ByteArrayInputStream(head), failing), 2, 1000, "test")) {
      assertThat(in.readNBytes(10_000)).hasSize(10_000);
      assertThatThrownBy(in::read).isInstanceOf(ZipException.class)
          .hasMessage("invalid block type");
    }
  }

  @Test
  void closingEarlyStopsTheReader() throws Exception {
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        return 7;
      }
    };
    InputStream in = new ReadAheadInputStream(endless, 2, 1000, "test");
    assertThat(in.read()).isEqualTo(7);
    in.close();
    assertThatThrownBy(in::read).isInstanceOf(IOException.class);
  }
}
