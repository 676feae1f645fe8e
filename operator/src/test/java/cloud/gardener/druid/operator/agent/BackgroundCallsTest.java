package cloud.gardener.druid.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.operator.agent.BackgroundCalls.Ended;
import cloud.gardener.druid.operator.agent.BackgroundCalls.Returned;
import cloud.gardener.druid.operator.agent.BackgroundCalls.Threw;
import cloud.gardener.druid.operator.agent.BackgroundCalls.TimedOut;
import cloud.gardener.druid.testenv.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The background calls of the rollout (full snapshots) and of the EtcdOpsTasks (snapshots,
 * defragmentation): off the caller's thread, once per key, handed out once, ended at their
 * deadline, dropped when nobody asks for them.
 */
class BackgroundCallsTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Instant LATER = T0.plusSeconds(60);

  final ManualClock clock = new ManualClock(T0);
  final ExecutorService pool = Executors.newFixedThreadPool(2);
  final BackgroundCalls calls = new BackgroundCalls(pool, clock);

  @AfterEach
  void close() {
    calls.close();
  }

  @Test
  void aCallRunsOffTheCallersThreadIsReportedOnceAndSignalsItsEnd() throws Exception {
    CountDownLatch ended = new CountDownLatch(1);
    AtomicReference<String> thread = new AtomicReference<>();
    calls.start("t", progress -> {
      thread.set(Thread.currentThread().getName());
      return 42L;
    }, LATER, ended::countDown);
    assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(calls.<Long>poll("t")).contains(new Returned<>(42L));
    assertThat(calls.poll("t")).as("handed out once").isEmpty();
    assertThat(calls.running("t")).isFalse();
    assertThat(thread.get()).isNotEqualTo(Thread.currentThread().getName());
  }

  @Test
  void aCallStillGoingAtItsDeadlineIsInterruptedAndEndsTimedOut() {
    AtomicBoolean interrupted = new AtomicBoolean();
    CountDownLatch started = new CountDownLatch(1);
    calls.start("t", progress -> {
      started.countDown();
      try {
        Thread.sleep(Duration.ofMinutes(10).toMillis());
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      return "too late";
    }, LATER, () -> { });
    await().atMost(Duration.ofSeconds(10)).until(() -> started.getCount() == 0);
    assertThat(calls.poll("t")).as("before the deadline").isEmpty();
    assertThat(calls.running("t")).isTrue();
    clock.set(LATER);
    assertThat(calls.poll("t")).contains(new TimedOut<>(LATER));
    await().atMost(Duration.ofSeconds(10)).untilTrue(interrupted);
  }

  @Test
  void aSecondStartForTheSameKeyDoesNotCallTwice() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch ended = new CountDownLatch(1);
    calls.start("t", progress -> {
      runs.incrementAndGet();
      release.await();
      return "once";
    }, LATER, ended::countDown);
    calls.start("t", progress -> {
      runs.incrementAndGet();
      return "twice";
    }, LATER, () -> { });
    assertThat(calls.pending()).isEqualTo(1);
    release.countDown();
    assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(calls.<String>poll("t")).contains(new Returned<>("once"));
    assertThat(runs).hasValue(1);
  }

  @Test
  void aFailureIsHandedOutOnceAndTheNextStartCallsAgain() {
    IllegalStateException refused = new IllegalStateException("no leader");
    calls.start("t", progress -> {
      throw refused;
    }, LATER, () -> { });
    Optional<Ended<Object>> failed = await().atMost(Duration.ofSeconds(10))
        .until(() -> calls.poll("t"), Optional::isPresent);
    assertThat(failed).contains(new Threw<>(refused));
    assertThat(calls.pending()).isZero();

    calls.start("t", progress -> 7L, LATER, () -> { });
    assertThat(await().atMost(Duration.ofSeconds(10)).until(() -> calls.<Long>poll("t"),
        Optional::isPresent)).contains(new Returned<>(7L));
  }

  @Test
  void progressKeepsTheLatestLineAndSignalsOnlyChanges() throws Exception {
    AtomicInteger signals = new AtomicInteger();
    CountDownLatch reported = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    calls.start("t", progress -> {
      progress.accept("1 MiB of ~4 MiB");
      progress.accept("1 MiB of ~4 MiB");
      progress.accept("2 MiB of ~4 MiB");
      reported.countDown();
      release.await();
      return "done";
    }, LATER, signals::incrementAndGet);
    assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(calls.progress("t")).contains("2 MiB of ~4 MiB");
    assertThat(signals).as("a repeated line is no change").hasValue(2);
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> calls.poll("t").isPresent());
    assertThat(calls.progress("t")).as("forgotten with the call").isEmpty();
  }

  @Test
  void callsOfOtherKeysAreIndependentAndUnclaimedEndsAreDropped() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    calls.start("etcd-2 volume", progress -> {
      release.await();
      return 2L;
    }, Instant.MAX, () -> { });
    calls.start("etcd-2 hibernation", progress -> {
      release.await();
      return 3L;
    }, Instant.MAX, () -> { });
    release.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    assertThat(calls.pending()).as("both ended, neither claimed").isEqualTo(2);

    clock.advance(BackgroundCalls.UNCLAIMED);
    assertThat(calls.pending()).isEqualTo(2);
    clock.advance(Duration.ofSeconds(1));
    assertThat(calls.pending()).as("the flow moved on: dropped").isZero();
  }
}
