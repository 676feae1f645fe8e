package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class ParallelPartUploadTest {

  /** Parts that take a while, recording how many are uploaded at once. */
  static class SlowParts implements ParallelPartUpload.Parts {
    final Map<Integer, byte[]> uploaded = new ConcurrentHashMap<>();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final AtomicBoolean aborted = new AtomicBoolean();
    volatile int completedCount = -1;
    volatile byte[] single;
    volatile int failPart = -1;

    @Override
    public void upload(int number, byte[] data, int length) throws IOException {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        Thread.sleep(30);
        if (number == failPart) {
          throw new IOException("part " + number + " refused");
        }
        uploaded.put(number, Arrays.copyOf(data, length));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.decrementAndGet();
      }
    }

    @Override
    public void complete(int count) {
      completedCount = count;
    }

    @Override
    public void single(byte[] data, int length) {
      single = Arrays.copyOf(data, length);
    }

    @Override
    public void abort() {
      aborted.set(true);
    }

    byte[] object() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 1; i <= completedCount; i++) {
        out.writeBytes(uploaded.get(i));
      }
      return out.toByteArray();
    }
  }

  @Test
  void uploadsPartsInParallelWithinTheBudgetAndCompletesInOrder() throws IOException {
    SlowParts parts = new SlowParts();
    byte[] content = new byte[20 * 1000 + 7];
    new Random(1).nextBytes(content);

    try (ParallelPartUpload out = new ParallelPartUpload(parts, 1000, 3, "test-upload")) {
      for (int off = 0; off < content.length; off += 333) {
        out.write(content, off, Math.min(333, content.length - off));
      }
    }

    assertThat(parts.completedCount).isEqualTo(21);
    assertThat(parts.object()).isEqualTo(content);
    assertThat(parts.maxInFlight.get()).as("parts uploaded at once").isBetween(2, 3);
  }

  @Test
  void contentOfOnePartIsOneRequest() throws IOException {
    SlowParts parts = new SlowParts();
    try (ParallelPartUpload out = new ParallelPartUpload(parts, 1000, 3, "test-upload")) {
      out.write(new byte[] {1, 2, 3});
    }
    assertThat(parts.single).containsExactly(1, 2, 3);
    assertThat(parts.completedCount).isEqualTo(-1);
  }

  @Test
  void aRefusedPartFailsTheUploadAndNothingIsCompleted() throws Exception {
    SlowParts parts = new SlowParts();
    parts.failPart = 2;
    ParallelPartUpload out = new ParallelPartUpload(parts, 1000, 3, "test-upload");

    assertThatThrownBy(() -> {
      for (int i = 0; i < 50; i++) {
        out.write(new byte[1000]);
      }
      out.close();
    }).hasMessageContaining("part 2 refused");
    out.abort();

    assertThat(parts.completedCount).isEqualTo(-1);
    assertThat(parts.aborted).isTrue();
  }

  @Test
  void aWriterBlocksWhileTheBudgetIsSpent() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    ParallelPartUpload.Parts stuck = new SlowParts() {
      @Override
      public void upload(int number, byte[] data, int length) {
        started.incrementAndGet();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    ParallelPartUpload out = new ParallelPartUpload(stuck, 1000, 2, "test-upload");
    Thread writer = new Thread(() -> {
      try {
        for (int i = 0; i < 10; i++) {
          out.write(new byte[1000]);
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    writer.start();

    // the writer parks on the budget with 2 parts in flight and a third one filled
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(
        () -> started.get() == 2 && writer.getState() == Thread.State.WAITING);
    assertThat(started.get()).isEqualTo(2);
    release.countDown();
    writer.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(writer.isAlive()).isFalse();
    out.close();
  }
}
