package cloud.gardener.druid.operator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.operator.agent.AgentClient;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BackgroundSnapshotsTest {

  final ExecutorService pool = Executors.newFixedThreadPool(2);
  final AtomicLong clock = new AtomicLong();
  final BackgroundSnapshots runs = new BackgroundSnapshots(pool, clock::get);
  final AtomicInteger taken = new AtomicInteger();

  @AfterEach
  void stop() {
    runs.close();
  }

  @Test
  void theStepWaitsWhileTheSnapshotRunsOffItsThreadAndGetsTheRevisionOnce() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<String> thread = new AtomicReference<>();
    Runnable request = () -> runs.result("etcd-1 volume", () -> {
      thread.set(Thread.currentThread().getName());
      taken.incrementAndGet();
      awaitQuietly(release);
      return 42L;
    });

    request.run();
    await().atMost(Duration.ofSeconds(5)).until(() -> taken.get() == 1);
    assertThat(runs.result("etcd-1 volume", () -> {
      taken.incrementAndGet();
      return 0L;
    })).as("still running").isEmpty();
    assertThat(runs.pending()).as("asking again does not start a second snapshot").isEqualTo(1);
    release.countDown();
    OptionalLong revision = await().atMost(Duration.ofSeconds(5))
        .until(() -> runs.result("etcd-1 volume", () -> 0L), OptionalLong::isPresent);

    assertThat(revision.getAsLong()).isEqualTo(42L);
    assertThat(taken.get()).isEqualTo(1);
    assertThat(thread.get()).isNotEqualTo(Thread.currentThread().getName());
    assertThat(runs.pending()).as("handed out once").isZero();
  }

  @Test
  void theFirstRequestAnswersRunningEvenWhenTheSnapshotIsAlreadyTaken() {
    BackgroundSnapshots inline = new BackgroundSnapshots(Runnable::run, clock::get);
    assertThat(inline.result("etcd-1 volume", () -> 5L)).isEmpty();
    assertThat(inline.result("etcd-1 volume", () -> 0L)).hasValue(5L);
  }

  @Test
  void aFailureIsThrownOnceAndTheNextRequestTakesTheSnapshotAgain() {
    AgentClient.AgentException refused = new AgentClient.AgentException("no leader");
    await().atMost(Duration.ofSeconds(5)).until(() -> {
      try {
        return runs.result("etcd-1 hibernation", () -> {
          taken.incrementAndGet();
          throw refused;
        }).isPresent();
      } catch (AgentClient.AgentException e) {
        assertThat(e).isSameAs(refused);
        return true;
      }
    });
    assertThat(runs.pending()).isZero();

    OptionalLong retried = await().atMost(Duration.ofSeconds(5)).until(
        () -> runs.result("etcd-1 hibernation", () -> {
          taken.incrementAndGet();
          return 7L;
        }), OptionalLong::isPresent);
    assertThat(retried.getAsLong()).isEqualTo(7L);
    assertThat(taken.get()).isEqualTo(2);
  }

  @Test
  void requestsOfOtherEtcdsOrPurposesAreIndependentAndUnclaimedResultsAreDropped()
      throws Exception {
    ExecutorService own = Executors.newFixedThreadPool(2);
    BackgroundSnapshots other = new BackgroundSnapshots(own, clock::get);
    CountDownLatch release = new CountDownLatch(1);
    assertThat(other.result("etcd-2 volume", () -> {
      awaitQuietly(release);
      return 2L;
    })).isEmpty();
    assertThat(other.result("etcd-2 hibernation", () -> {
      awaitQuietly(release);
      return 3L;
    })).isEmpty();
    release.countDown();
    own.shutdown();
    assertThat(own.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    assertThat(other.pending()).as("both finished, neither claimed").isEqualTo(2);

    clock.addAndGet(BackgroundSnapshots.UNCLAIMED.toNanos() - 1);
    assertThat(other.pending()).isEqualTo(2);
    clock.addAndGet(2);
    assertThat(other.pending()).as("the flow moved on: dropped").isZero();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
