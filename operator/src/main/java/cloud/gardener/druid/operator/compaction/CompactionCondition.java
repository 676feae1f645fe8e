package cloud.gardener.druid.operator.compaction;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.operator.compaction.CompactionDecision.JobState;
import cloud.gardener.druid.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.List;
import java.util.Optional;

/**
 * Upstream's condition {@code LastSnapshotCompactionSucceeded}, with its reasons and messages
 * (etcd-druid {@code internal/controller/compaction}): the outcome of the last compaction Job,
 * or of the full snapshot taken instead of one.
 */
final class CompactionCondition {

  static final String SUCCEEDED = "None";
  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
  static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
  static final String PROCESS_FAILURE = "ProcessFailure";
  static final String UNKNOWN = "Unknown";
  static final String FULL_SNAPSHOT_TAKEN = "FullSnapshotTakenSuccessfully";
  static final String FULL_SNAPSHOT_FAILED = "ErrorTriggeringFullSnapshot";
  private static final String RETRIED = ", Compaction will be retried";

  private CompactionCondition() {
  }

  static Condition ofJob(String namespace, String jobName, JobState.Finished outcome,
      Optional<Pod> pod) {
    String state = outcome.reason() == null ? "" : outcome.reason();
    String message = "Compaction job " + namespace + "/" + jobName + " completed with state "
        + state;
    return outcome.succeeded()
        ? Conditions.of(ConditionTypes.LAST_SNAPSHOT_COMPACTION_SUCCEEDED, ConditionTypes.TRUE,
            SUCCEEDED, message)
        : Conditions.of(ConditionTypes.LAST_SNAPSHOT_COMPACTION_SUCCEEDED, ConditionTypes.FALSE,
            failureReason(state, pod), message + RETRIED);
  }

  static Condition ofFullSnapshot(String namespace, String name, Optional<String> error) {
    return error.isEmpty()
        ? Conditions.of(ConditionTypes.LAST_SNAPSHOT_COMPACTION_SUCCEEDED, ConditionTypes.TRUE,
            FULL_SNAPSHOT_TAKEN, "Full snapshot taken successfully for etcd " + namespace + "/"
                + name)
        : Conditions.of(ConditionTypes.LAST_SNAPSHOT_COMPACTION_SUCCEEDED, ConditionTypes.FALSE,
            FULL_SNAPSHOT_FAILED, "Error while triggering full snapshot for etcd " + namespace
                + "/" + name + ": " + error.get() + " ,Compaction will be retried");
  }

  /**
   * Why a Job failed, as upstream names it: past its deadline; after its backoff limit, the
   * pod's disruption reason or {@code ProcessFailure}; otherwise {@code Unknown}.
   */
  static String failureReason(String jobReason, Optional<Pod> pod) {
    if (DEADLINE_EXCEEDED.equals(jobReason)) {
      return DEADLINE_EXCEEDED;
    }
    if (!BACKOFF_LIMIT_EXCEEDED.equals(jobReason) || pod.isEmpty()
        || pod.get().getStatus() == null) {
      return UNKNOWN;
    }
    var status = pod.get().getStatus();
    for (PodCondition c : Optional.ofNullable(status.getConditions()).orElse(List.of())) {
      if ("DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus())
          && c.getReason() != null) {
        return c.getReason();
      }
    }
    boolean terminated = Optional.ofNullable(status.getContainerStatuses()).orElse(List.of())
        .stream().anyMatch(c -> c.getState() != null && c.getState().getTerminated() != null);
    return terminated ? PROCESS_FAILURE : UNKNOWN;
  }
}
