package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.agent.BackgroundCalls;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The full snapshots rollout steps wait for (before volumes are replaced or deleted, before
 * hibernation, before another etcd minor runs): each taken in the background through a
 * member's agent, asked for by the Etcd and what it is for, so that the reconcile threads stay
 * free while a large database is written.
 */
final class RolloutSnapshots implements AutoCloseable {

  static final Duration FULL_SNAPSHOT_TIMEOUT = Duration.ofMinutes(15);
  /** Full snapshots running at a time, over every Etcd. */
  static final int SNAPSHOT_THREADS = 8;

  private final BackgroundCalls calls;

  RolloutSnapshots(BackgroundCalls calls) {
    this.calls = calls;
  }

  static RolloutSnapshots onThreads() {
    return new RolloutSnapshots(BackgroundCalls.onThreads(SNAPSHOT_THREADS, "full-snapshot",
        Clock.systemUTC()));
  }

  /**
   * The revision of the full snapshot of {@code etcd} asked for {@code purpose} (the Etcd by
   * UID, so a recreated one asks anew). It is taken in the background, with upstream's
   * full-snapshot timeout (it may take long on a large database); empty while it runs, and
   * always on the first ask, so that the wait shows in the status however fast the snapshot
   * is. Throws what the snapshot threw, once; the next ask takes it again.
   */
  OptionalLong revision(Etcd etcd, String purpose, AgentClient agents, AgentEndpoint via,
      boolean isFinal) {
    String key = etcd.getMetadata().getUid() + " " + purpose;
    Optional<BackgroundCalls.Ended<Long>> ended = calls.poll(key);
    if (ended.isEmpty()) {
      AgentClient snapshots = agents.withActionTimeout(FULL_SNAPSHOT_TIMEOUT);
      calls.start(key, progress -> snapshots.fullSnapshot(via, isFinal), Instant.MAX, () -> { });
      return OptionalLong.empty();
    }
    if (ended.get() instanceof BackgroundCalls.Returned<Long> returned) {
      return OptionalLong.of(returned.value());
    }
    if (ended.get() instanceof BackgroundCalls.Threw<Long> threw
        && threw.failure() instanceof RuntimeException e) {
      throw e;
    }
    throw new AgentClient.AgentException("the full snapshot through " + via.member()
        + " ended without a revision: " + ended.get());
  }

  /** Stops the snapshots still running (the operator is stopping). */
  @Override
  public void close() {
    calls.close();
  }
}
