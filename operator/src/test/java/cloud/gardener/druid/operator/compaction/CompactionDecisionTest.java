package cloud.gardener.druid.operator.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.operator.compaction.CompactionDecision.Action;
import cloud.gardener.druid.operator.compaction.CompactionDecision.Facts;
import cloud.gardener.druid.operator.compaction.CompactionDecision.Failures;
import cloud.gardener.druid.operator.compaction.CompactionDecision.JobState;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CompactionDecisionTest {

  static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  static final long NEVER = Long.MAX_VALUE;

  static Facts facts(long full, long delta, long threshold) {
    return new Facts(Optional.empty(), false, OptionalLong.of(full), OptionalLong.of(delta),
        threshold, NEVER, Failures.NONE, NOW);
  }

  @Test
  void aJobStartsOnceTheDeltaEventsReachTheThreshold() {
    assertThat(CompactionDecision.decide(facts(100, 1099, 1000)))
        .isEqualTo(new Action.Idle("999 delta events, below the threshold of 1000",
            OptionalLong.of(999)));
    assertThat(CompactionDecision.decide(facts(100, 1100, 1000)))
        .isEqualTo(new Action.CreateJob(1000));
    assertThat(CompactionDecision.decide(facts(100, 5000, 1000)))
        .isEqualTo(new Action.CreateJob(4900));
  }

  @Test
  void withoutRevisionsInBothLeasesNothingStarts() {
    Facts noDelta = new Facts(Optional.empty(), false, OptionalLong.of(5), OptionalLong.empty(),
        1, NEVER, Failures.NONE, NOW);
    assertThat(CompactionDecision.decide(noDelta)).isInstanceOf(Action.Idle.class);
  }

  @Test
  void aRunningJobIsNeverStartedAgainWhateverTheEvents() {
    Facts running = new Facts(Optional.of(new JobState.Running()), false, OptionalLong.of(0),
        OptionalLong.of(1_000_000), 1, NEVER, Failures.NONE, NOW);
    assertThat(CompactionDecision.decide(running)).isEqualTo(new Action.AwaitJob());
  }

  @Test
  void aJobOrPodGoingAwayIsAwaitedBeforeTheNextJob() {
    Facts deleting = new Facts(Optional.of(new JobState.Deleting()), false, OptionalLong.of(0),
        OptionalLong.of(10), 1, NEVER, Failures.NONE, NOW);
    assertThat(CompactionDecision.decide(deleting)).isInstanceOf(Action.AwaitCleanup.class);
    Facts podLeft = new Facts(Optional.empty(), true, OptionalLong.of(0), OptionalLong.of(10), 1,
        NEVER, Failures.NONE, NOW);
    assertThat(CompactionDecision.decide(podLeft)).isInstanceOf(Action.AwaitCleanup.class);
  }

  @Test
  void aFinishedJobIsRecordedAndDeletedFirst() {
    JobState.Finished failed = new JobState.Finished(false, Duration.ofSeconds(90),
        "DeadlineExceeded");
    Facts facts = new Facts(Optional.of(failed), false, OptionalLong.of(0), OptionalLong.of(10),
        1, NEVER, Failures.NONE, NOW);
    assertThat(CompactionDecision.decide(facts)).isEqualTo(new Action.FinishJob(failed));
  }

  @Test
  void failedJobsBackOffExponentiallyUpToThirtyMinutesAndASuccessResets() {
    assertThat(CompactionDecision.backoff(0)).isZero();
    assertThat(CompactionDecision.backoff(1)).isEqualTo(Duration.ofMinutes(1));
    assertThat(CompactionDecision.backoff(2)).isEqualTo(Duration.ofMinutes(2));
    assertThat(CompactionDecision.backoff(4)).isEqualTo(Duration.ofMinutes(8));
    assertThat(CompactionDecision.backoff(6)).isEqualTo(Duration.ofMinutes(30));
    assertThat(CompactionDecision.backoff(100)).isEqualTo(Duration.ofMinutes(30));

    JobState.Finished failed = new JobState.Finished(false, Duration.ofMinutes(1),
        "BackoffLimitExceeded");
    Failures twice = Failures.NONE.after(failed, NOW.minusSeconds(300))
        .after(failed, NOW.minusSeconds(30));
    assertThat(twice.consecutive()).isEqualTo(2);
    Facts backingOff = new Facts(Optional.empty(), false, OptionalLong.of(0),
        OptionalLong.of(5000), 1000, NEVER, twice, NOW);
    assertThat(CompactionDecision.decide(backingOff))
        .isEqualTo(new Action.BackOff(Duration.ofSeconds(90), 5000));
    Facts later = new Facts(Optional.empty(), false, OptionalLong.of(0), OptionalLong.of(5000),
        1000, NEVER, twice, NOW.plusSeconds(90));
    assertThat(CompactionDecision.decide(later)).isEqualTo(new Action.CreateJob(5000));
    assertThat(twice.after(new JobState.Finished(true, Duration.ofMinutes(1), "Completed"),
        NOW)).isEqualTo(Failures.NONE);
  }

  @Test
  void pastTheFullSnapshotThresholdOrAfterADeadlineTheLeaderTakesAFullSnapshotInstead() {
    Facts many = new Facts(Optional.empty(), false, OptionalLong.of(0), OptionalLong.of(3000),
        1000, 3000, Failures.NONE, NOW);
    assertThat(CompactionDecision.decide(many)).isEqualTo(new Action.TriggerFullSnapshot(3000,
        "3000 delta events reach the full snapshot threshold of 3000"));
    Failures deadline = Failures.NONE.after(new JobState.Finished(false, Duration.ofHours(3),
        "DeadlineExceeded"), NOW.minusSeconds(3600));
    Facts afterDeadline = new Facts(Optional.empty(), false, OptionalLong.of(0),
        OptionalLong.of(1500), 1000, 3000, deadline, NOW);
    assertThat(CompactionDecision.decide(afterDeadline)).isEqualTo(
        new Action.TriggerFullSnapshot(1500, "the last compaction job ran past its deadline"));
    Facts fewAfterDeadline = new Facts(Optional.empty(), false, OptionalLong.of(0),
        OptionalLong.of(10), 1000, 3000, deadline, NOW);
    assertThat(CompactionDecision.decide(fewAfterDeadline)).isInstanceOf(Action.Idle.class);
  }

  @Test
  void failedJobsAreLabelledWithUpstreamsFailureReasons() {
    JobState.Finished failed = new JobState.Finished(false, Duration.ofMinutes(1),
        "BackoffLimitExceeded");
    assertThat(CompactionDecision.failureReason(
        new JobState.Finished(true, Duration.ofMinutes(1), "Completed"), Optional.empty()))
        .isEqualTo("none");
    assertThat(CompactionDecision.failureReason(new JobState.Finished(false,
        Duration.ofHours(3), "DeadlineExceeded"), Optional.empty()))
        .isEqualTo("deadlineExceeded");
    assertThat(CompactionDecision.failureReason(failed, Optional.empty())).isEqualTo("unknown");
    assertThat(CompactionDecision.failureReason(failed, Optional.of(new PodBuilder()
        .withNewStatus().addNewCondition().withType("DisruptionTarget").withStatus("True")
        .withReason("EvictionByEvictionAPI").endCondition().endStatus().build())))
        .isEqualTo("evicted");
    assertThat(CompactionDecision.failureReason(failed, Optional.of(new PodBuilder()
        .withNewStatus().addNewCondition().withType("DisruptionTarget").withStatus("True")
        .withReason("PreemptionByScheduler").endCondition().endStatus().build())))
        .isEqualTo("preempted");
    assertThat(CompactionDecision.failureReason(failed, Optional.of(new PodBuilder()
        .withNewStatus().addNewContainerStatus().withNewState().withNewTerminated()
        .withExitCode(1).endTerminated().endState().endContainerStatus().endStatus().build())))
        .isEqualTo("processFailure");
  }

  @Test
  void theJobStateComesFromItsConditionsAndTimes() {
    assertThat(CompactionDecision.stateOf(job(null, null, null), NOW))
        .isEqualTo(new JobState.Running());
    assertThat(CompactionDecision.stateOf(
        job("Complete", "2026-12-01T11:50:00Z", "2026-12-01T11:55:00Z"), NOW))
        .isEqualTo(new JobState.Finished(true, Duration.ofMinutes(5), "CompletionsReached"));
    assertThat(CompactionDecision.stateOf(job("Failed", "2026-12-01T11:00:00Z", null), NOW))
        .isEqualTo(new JobState.Finished(false, Duration.ofHours(1), "CompletionsReached"));
    Job deleting = job(null, null, null);
    deleting.getMetadata().setDeletionTimestamp("2026-12-01T11:59:00Z");
    assertThat(CompactionDecision.stateOf(deleting, NOW)).isEqualTo(new JobState.Deleting());
  }

  private static Job job(String condition, String start, String completion) {
    JobBuilder job = new JobBuilder().withNewMetadata().withName("etcd-compactor").endMetadata();
    if (condition == null) {
      return job.withNewStatus().withActive(1).endStatus().build();
    }
    return job.withNewStatus().withStartTime(start).withCompletionTime(completion)
        .addNewCondition().withType(condition).withStatus("True")
        .withReason("CompletionsReached").endCondition().endStatus().build();
  }
}
