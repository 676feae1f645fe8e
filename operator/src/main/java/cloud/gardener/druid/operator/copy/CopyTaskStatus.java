package cloud.gardener.druid.operator.copy;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTaskStatus;
import cloud.gardener.druid.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The status of an EtcdCopyBackupsTask, derived from its Job as upstream does: the Job's
 * {@code Complete} condition becomes {@code Succeeded}, {@code Failed} stays {@code Failed}
 * (status, reason, message and times copied); no conditions while there is no Job.
 * {@code lastError} says why the last reconcile could not do its part, or is absent.
 *
 * <p>Not upstream: the condition {@link #PROGRESSING} says how far the copy is, {@code True}
 * (reason {@code Copying}) while the Job runs, its message how far the copy is
 * (served by the copy, {@link CopyJobProgress}); {@code False} (reason {@code Finished})
 * once it ended, its message the pod's termination message (read once). Its times change only
 * with it.
 */
final class CopyTaskStatus {

  static final String SUCCEEDED = "Succeeded";
  static final String FAILED = "Failed";
  static final String PROGRESSING = "Progressing";
  /** An ended copy whose pod left no termination message (e.g. its pod is gone). */
  static final String NO_LAST_WORD = "the copy ended; its pod left no termination message";

  private CopyTaskStatus() {
  }

  /**
   * With the copy's {@code progress}: how far the copy is while the Job runs, its
   * termination message once it ended; {@code now} stamps a changed Progressing condition.
   */
  static EtcdCopyBackupsTaskStatus of(EtcdCopyBackupsTask task, Optional<Job> job,
      Optional<String> progress, Optional<String> error, Instant now) {
    EtcdCopyBackupsTaskStatus status = new EtcdCopyBackupsTaskStatus();
    status.setObservedGeneration(task.getMetadata().getGeneration());
    List<Condition> conditions = new ArrayList<>(job.map(CopyTaskStatus::conditions)
        .orElse(List.of()));
    List<Condition> previous = task.getStatus() == null ? null : task.getStatus().getConditions();
    job.flatMap(j -> progressing(j, progress, previous))
        .ifPresent(p -> conditions.add(Conditions.stamp(p, previous, now)));
    status.setConditions(conditions.isEmpty() ? null : conditions);
    status.setLastError(error.orElse(null));
    return status;
  }

  /** Whether the copy ended, successfully or not: nothing is left to do for the task. */
  static boolean finished(EtcdCopyBackupsTaskStatus status) {
    return status != null && status.getConditions() != null && status.getConditions().stream()
        .anyMatch(c -> (SUCCEEDED.equals(c.getType()) || FAILED.equals(c.getType()))
            && "True".equals(c.getStatus()));
  }

  /** Whether the Job ended: its Complete or Failed condition is True. */
  static boolean ended(Job job) {
    return conditions(job).stream().anyMatch(c -> "True".equals(c.getStatus()));
  }

  /** Once ended without a new word, the Finished condition written before stays. */
  private static Optional<Condition> progressing(Job job, Optional<String> progress,
      List<Condition> previous) {
    if (!ended(job)) {
      return Optional.of(Conditions.of(PROGRESSING, "True", "Copying",
          progress.orElse("the copy has not said how far it is yet")));
    }
    Optional<Condition> before = Condition.find(previous, PROGRESSING)
        .filter(c -> "False".equals(c.getStatus()));
    return Optional.of(Conditions.of(PROGRESSING, "False", "Finished", progress
        .or(() -> before.map(Condition::getMessage))
        .orElse(NO_LAST_WORD)));
  }

  private static List<Condition> conditions(Job job) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return List.of();
    }
    List<Condition> conditions = new ArrayList<>();
    for (JobCondition jc : job.getStatus().getConditions()) {
      String type = switch (jc.getType()) {
        case "Complete" -> SUCCEEDED;
        case "Failed" -> FAILED;
        default -> null;
      };
      if (type == null) {
        continue;
      }
      Condition c = new Condition();
      c.setType(type);
      c.setStatus(jc.getStatus());
      c.setLastTransitionTime(jc.getLastTransitionTime());
      c.setLastUpdateTime(jc.getLastProbeTime());
      c.setReason(jc.getReason());
      c.setMessage(jc.getMessage());
      conditions.add(c);
    }
    return conditions;
  }
}
