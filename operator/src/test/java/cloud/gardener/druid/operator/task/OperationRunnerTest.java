package cloud.gardener.druid.operator.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.operator.task.OperationRunner.Failed;
import cloud.gardener.druid.operator.task.OperationRunner.Succeeded;
import cloud.gardener.druid.testenv.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OperationRunnerTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  final ManualClock clock = new ManualClock(T0);
  final OperationRunner runner = new OperationRunner(clock);

  @AfterEach
  void close() {
    runner.close();
  }

  @Test
  void aFinishedRunIsReportedOnceAndSignalsItsEnd() throws Exception {
    CountDownLatch finished = new CountDownLatch(1);
    runner.start("t", () -> new Succeeded("done"), T0.plusSeconds(60), finished::countDown);
    assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(runner.poll("t")).contains(new Succeeded("done"));
    assertThat(runner.poll("t")).isEmpty();
    assertThat(runner.running("t")).isFalse();
  }

  @Test
  void aRunStillGoingAtItsDeadlineIsInterruptedAndEndsAsATimeout() {
    AtomicBoolean interrupted = new AtomicBoolean();
    CountDownLatch started = new CountDownLatch(1);
    runner.start("t", () -> {
      started.countDown();
      try {
        Thread.sleep(Duration.ofMinutes(10).toMillis());
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      return new Succeeded("too late");
    }, T0.plusSeconds(60), () -> { });
    await().atMost(Duration.ofSeconds(10)).until(() -> started.getCount() == 0);
    assertThat(runner.poll("t")).as("before the deadline").isEmpty();
    assertThat(runner.running("t")).isTrue();
    clock.set(T0.plusSeconds(60));
    assertThat(runner.poll("t")).hasValueSatisfying(r -> {
      assertThat(r).isInstanceOf(Failed.class);
      assertThat(((Failed) r).error().code()).isEqualTo(TaskError.TIMEOUT);
    });
    await().atMost(Duration.ofSeconds(10)).untilTrue(interrupted);
  }

  @Test
  void aSecondStartForTheSameTaskDoesNotRunTwice() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(1);
    runner.start("t", () -> {
      runs.incrementAndGet();
      release.await();
      return new Succeeded("once");
    }, T0.plusSeconds(60), finished::countDown);
    runner.start("t", () -> {
      runs.incrementAndGet();
      return new Succeeded("twice");
    }, T0.plusSeconds(60), () -> { });
    release.countDown();
    assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(runner.poll("t")).contains(new Succeeded("once"));
    assertThat(runs).hasValue(1);
  }

  @Test
  void progressKeepsTheLatestLineAndSignalsOnlyChanges() throws Exception {
    AtomicInteger signals = new AtomicInteger();
    CountDownLatch reported = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    runner.start("t", progress -> {
      progress.accept("1 MiB of ~4 MiB");
      progress.accept("1 MiB of ~4 MiB");
      progress.accept("2 MiB of ~4 MiB");
      reported.countDown();
      release.await();
      return new Succeeded("done");
    }, T0.plusSeconds(60), () -> { }, signals::incrementAndGet);
    assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(runner.progress("t")).contains("2 MiB of ~4 MiB");
    assertThat(signals).as("a repeated line is no change").hasValue(2);
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> runner.poll("t").isPresent());
    assertThat(runner.progress("t")).as("forgotten with the run").isEmpty();
  }
}
