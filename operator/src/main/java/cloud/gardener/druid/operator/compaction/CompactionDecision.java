package cloud.gardener.druid.operator.compaction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the compaction controller does for one Etcd, decided from what it observed (pure, as
 * upstream's compaction controller decides): a finished Job is recorded and deleted first; a
 * running one, or a pod still terminating, is waited for; otherwise a Job starts when the
 * delta events since the last full snapshot (delta lease revision minus full lease revision)
 * reach the threshold, unless failed Jobs back off. Past {@code triggerFullSnapshotThreshold}
 * events, or when the last Job ran out of time, the leader's agent takes a full snapshot
 * instead (a compaction of that many events would hardly finish, as upstream reasons).
 */
final class CompactionDecision {

  /** First wait after a failed Job; doubled per further failure up to {@link #MAX_BACKOFF}. */
  static final Duration BASE_BACKOFF = Duration.ofMinutes(1);
  static final Duration MAX_BACKOFF = Duration.ofMinutes(30);

  private CompactionDecision() {
  }

  /** The compaction Job as observed. */
  sealed interface JobState {
    record Running() implements JobState {
    }

    record Deleting() implements JobState {
    }

    /** {@code reason}: the Job condition's reason, e.g. DeadlineExceeded. */
    record Finished(boolean succeeded, Duration duration, String reason) implements JobState {
    }
  }

  /**
   * @param failures consecutive failed Jobs of this Etcd and when the last one ended
   */
  record Facts(Optional<JobState> job, boolean podLeft, OptionalLong fullRevision,
      OptionalLong deltaRevision, long eventsThreshold, long fullSnapshotThreshold,
      Failures failures, Instant now) {
  }

  /** {@code deadlineExceeded}: the last Job was killed at its active deadline. */
  record Failures(int consecutive, Instant lastEnded, boolean deadlineExceeded) {
    static final Failures NONE = new Failures(0, Instant.EPOCH, false);

    Failures after(JobState.Finished job, Instant ended) {
      return job.succeeded() ? NONE
          : new Failures(consecutive + 1, ended, DEADLINE_EXCEEDED.equals(job.reason()));
    }
  }

  /** The reason of a Job's Failed condition when it ran past its active deadline. */
  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";

  sealed interface Action {
    /** Nothing to do until the leases or the Job change. */
    record Idle(String why, OptionalLong deltaEvents) implements Action {
    }

    /** A Job runs: wait for it (its status changes wake the controller). */
    record AwaitJob() implements Action {
    }

    /** The last Job or its pod is still going away: look again shortly. */
    record AwaitCleanup(String why) implements Action {
    }

    /** Record the finished Job in the metrics, then delete it. */
    record FinishJob(JobState.Finished outcome) implements Action {
    }

    record CreateJob(long deltaEvents) implements Action {
    }

    record BackOff(Duration remaining, long deltaEvents) implements Action {
    }

    /** Ask the leader's agent for a full snapshot instead of compacting. */
    record TriggerFullSnapshot(long deltaEvents, String why) implements Action {
    }
  }

  static Action decide(Facts facts) {
    if (facts.job().isPresent()) {
      JobState job = facts.job().get();
      if (job instanceof JobState.Running) {
        return new Action.AwaitJob();
      }
      if (job instanceof JobState.Deleting) {
        return new Action.AwaitCleanup("the last compaction job is being deleted");
      }
      return new Action.FinishJob((JobState.Finished) job);
    }
    if (facts.podLeft()) {
      return new Action.AwaitCleanup("the last compaction job's pod is still terminating");
    }
    if (facts.fullRevision().isEmpty() || facts.deltaRevision().isEmpty()) {
      return new Action.Idle("no full and delta snapshot revisions in the leases yet",
          OptionalLong.empty());
    }
    long events = facts.deltaRevision().getAsLong() - facts.fullRevision().getAsLong();
    if (events < facts.eventsThreshold()) {
      return new Action.Idle(events + " delta events, below the threshold of "
          + facts.eventsThreshold(), OptionalLong.of(events));
    }
    if (events >= facts.fullSnapshotThreshold()) {
      return new Action.TriggerFullSnapshot(events, events + " delta events reach the full"
          + " snapshot threshold of " + facts.fullSnapshotThreshold());
    }
    if (facts.failures().deadlineExceeded()) {
      return new Action.TriggerFullSnapshot(events,
          "the last compaction job ran past its deadline");
    }
    Duration remaining = backoffRemaining(facts.failures(), facts.now());
    if (!remaining.isZero()) {
      return new Action.BackOff(remaining, events);
    }
    return new Action.CreateJob(events);
  }

  static Duration backoff(int consecutiveFailures) {
    if (consecutiveFailures <= 0) {
      return Duration.ZERO;
    }
    Duration wait = BASE_BACKOFF.multipliedBy(1L << Math.min(consecutiveFailures - 1, 20));
    return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
  }

  private static Duration backoffRemaining(Failures failures, Instant now) {
    Instant until = failures.lastEnded().plus(backoff(failures.consecutive()));
    return until.isAfter(now) ? Duration.between(now, until) : Duration.ZERO;
  }

  /**
   * Upstream's {@code failureReason} label of a finished Job: {@code none}, or why it failed,
   * read from the Job's condition and its pod (disruption condition, terminated container).
   */
  static String failureReason(JobState.Finished job, Optional<Pod> pod) {
    if (job.succeeded()) {
      return "none";
    }
    if (DEADLINE_EXCEEDED.equals(job.reason())) {
      return "deadlineExceeded";
    }
    if (pod.isEmpty() || pod.get().getStatus() == null) {
      return "unknown";
    }
    var status = pod.get().getStatus();
    for (PodCondition c : Optional.ofNullable(status.getConditions()).orElse(List.of())) {
      if ("DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus())) {
        return switch (String.valueOf(c.getReason())) {
          case "PreemptionByScheduler" -> "preempted";
          case "DeletionByTaintManager", "EvictionByEvictionAPI", "TerminationByKubelet" ->
              "evicted";
          default -> "unknown";
        };
      }
    }
    boolean terminated = Optional.ofNullable(status.getContainerStatuses()).orElse(List.of())
        .stream().anyMatch(c -> c.getState() != null && c.getState().getTerminated() != null);
    return terminated ? "processFailure" : "unknown";
  }

  /** The state of a compaction Job read from its status (upstream reads the same fields). */
  static JobState stateOf(Job job, Instant now) {
    if (job.getMetadata().getDeletionTimestamp() != null) {
      return new JobState.Deleting();
    }
    var status = job.getStatus();
    List<JobCondition> conditions = status == null || status.getConditions() == null
        ? List.of() : status.getConditions();
    Instant started = status == null || status.getStartTime() == null ? now
        : OffsetDateTime.parse(status.getStartTime()).toInstant();
    for (JobCondition c : conditions) {
      if (!"True".equals(c.getStatus())) {
        continue;
      }
      if ("Complete".equals(c.getType()) || "SuccessCriteriaMet".equals(c.getType())) {
        Instant ended = status.getCompletionTime() == null ? now
            : OffsetDateTime.parse(status.getCompletionTime()).toInstant();
        return new JobState.Finished(true, Duration.between(started, ended), c.getReason());
      }
      if ("Failed".equals(c.getType()) || "FailureTarget".equals(c.getType())) {
        return new JobState.Finished(false, Duration.between(started, now), c.getReason());
      }
    }
    return new JobState.Running();
  }
}
