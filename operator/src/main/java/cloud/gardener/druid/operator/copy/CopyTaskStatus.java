package cloud.gardener.druid.operator.copy;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTaskStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The status of an EtcdCopyBackupsTask, derived from its Job as upstream does: the Job's
 * {@code Complete} condition becomes {@code Succeeded}, {@code Failed} stays {@code Failed}
 * (status, reason, message and times copied); no conditions while there is no Job.
 * {@code lastError} says why the last reconcile could not do its part, or is absent.
 */
final class CopyTaskStatus {

  static final String SUCCEEDED = "Succeeded";
  static final String FAILED = "Failed";

  private CopyTaskStatus() {
  }

  static EtcdCopyBackupsTaskStatus of(EtcdCopyBackupsTask task, Optional<Job> job,
      Optional<String> error) {
    EtcdCopyBackupsTaskStatus status = new EtcdCopyBackupsTaskStatus();
    status.setObservedGeneration(task.getMetadata().getGeneration());
    status.setConditions(job.map(CopyTaskStatus::conditions).orElse(null));
    status.setLastError(error.orElse(null));
    return status;
  }

  /** Whether the copy ended, successfully or not: nothing is left to do for the task. */
  static boolean finished(EtcdCopyBackupsTaskStatus status) {
    return status != null && status.getConditions() != null && status.getConditions().stream()
        .anyMatch(c -> "True".equals(c.getStatus()));
  }

  private static List<Condition> conditions(Job job) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
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
    return conditions.isEmpty() ? null : conditions;
  }
}
