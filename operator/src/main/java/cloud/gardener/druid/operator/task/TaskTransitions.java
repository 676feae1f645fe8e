package cloud.gardener.druid.operator.task;

import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_FAILED;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_IN_PROGRESS;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_PENDING;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_REJECTED;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_SUCCEEDED;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.OpsTaskLastOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * The task status lifecycle as pure functions: each returns a new status, never changes its
 * argument. {@code state}: (none) → Pending → InProgress → Succeeded | Failed, or Pending →
 * Rejected. {@code lastTransitionTime} changes with {@code state}; {@code startedAt} is set
 * once, when the task enters InProgress; {@code lastOperation} says which phase (Admit,
 * Execution, Cleanup) is where; {@code lastErrors} hold the errors of the latest failure.
 */
public final class TaskTransitions {

  /** Seconds a finished task is kept when {@code spec.ttlSecondsAfterFinished} is absent. */
  public static final int DEFAULT_TTL_SECONDS = 3600;

  /** What the controller does next with a task, from its status alone. */
  public enum Phase {
    /** No state yet: record Pending. */
    NEW,
    /** Pending: run the admission checks. */
    ADMIT,
    /** InProgress: run or watch the operation. */
    EXECUTE,
    /** Succeeded, Failed or Rejected: delete after the TTL. */
    FINISHED
  }

  private TaskTransitions() {
  }

  public static Phase phase(EtcdOpsTask task) {
    EtcdOpsTaskStatus s = task.getStatus();
    if (s == null || s.getState() == null) {
      return Phase.NEW;
    }
    return switch (s.getState()) {
      case STATE_PENDING -> Phase.ADMIT;
      case STATE_IN_PROGRESS -> Phase.EXECUTE;
      default -> Phase.FINISHED;
    };
  }

  public static EtcdOpsTaskStatus pending(EtcdOpsTaskStatus current, String description,
      String runId, Instant now) {
    return next(current, STATE_PENDING, OpsTaskLastOperation.TYPE_ADMIT,
        OpsTaskLastOperation.STATE_IN_PROGRESS, description, runId, now);
  }

  public static EtcdOpsTaskStatus rejected(EtcdOpsTaskStatus current, List<TaskError> errors,
      String runId, Instant now) {
    EtcdOpsTaskStatus s = next(current, STATE_REJECTED, OpsTaskLastOperation.TYPE_ADMIT,
        OpsTaskLastOperation.STATE_FAILED, "rejected: " + describe(errors), runId, now);
    s.setLastErrors(lastErrors(errors, now));
    return s;
  }

  public static EtcdOpsTaskStatus inProgress(EtcdOpsTaskStatus current, String description,
      String runId, Instant now) {
    EtcdOpsTaskStatus s = next(current, STATE_IN_PROGRESS, OpsTaskLastOperation.TYPE_EXECUTION,
        OpsTaskLastOperation.STATE_IN_PROGRESS, description, runId, now);
    if (s.getStartedAt() == null) {
      s.setStartedAt(timestamp(now));
    }
    return s;
  }

  public static EtcdOpsTaskStatus succeeded(EtcdOpsTaskStatus current, String description,
      String runId, Instant now) {
    return next(current, STATE_SUCCEEDED, OpsTaskLastOperation.TYPE_EXECUTION,
        OpsTaskLastOperation.STATE_COMPLETED, description, runId, now);
  }

  public static EtcdOpsTaskStatus failed(EtcdOpsTaskStatus current, List<TaskError> errors,
      String runId, Instant now) {
    EtcdOpsTaskStatus s = next(current, STATE_FAILED, OpsTaskLastOperation.TYPE_EXECUTION,
        OpsTaskLastOperation.STATE_FAILED, "failed: " + describe(errors), runId, now);
    s.setLastErrors(lastErrors(errors, now));
    return s;
  }

  /** The state stays; the last operation records that the task is being deleted. */
  public static EtcdOpsTaskStatus cleanup(EtcdOpsTaskStatus current, String description,
      String runId, Instant now) {
    return next(current, current.getState(), OpsTaskLastOperation.TYPE_CLEANUP,
        OpsTaskLastOperation.STATE_IN_PROGRESS, description, runId, now);
  }

  /** Seconds to keep the task after it finished. */
  public static int ttlSeconds(EtcdOpsTask task) {
    Integer ttl = task.getSpec() == null ? null : task.getSpec().getTtlSecondsAfterFinished();
    return ttl == null ? DEFAULT_TTL_SECONDS : Math.max(0, ttl);
  }

  /**
   * Time left until a finished task is deleted: its TTL counted from the transition into its
   * final state; zero or negative when due.
   */
  public static Duration untilExpiry(EtcdOpsTask task, Instant now) {
    String since = task.getStatus() == null ? null : task.getStatus().getLastTransitionTime();
    Instant finished = since == null ? now : Instant.parse(since);
    return Duration.between(now, finished.plusSeconds(ttlSeconds(task)));
  }

  private static EtcdOpsTaskStatus next(EtcdOpsTaskStatus current, String state, String opType,
      String opState, String description, String runId, Instant now) {
    EtcdOpsTaskStatus s = current == null ? new EtcdOpsTaskStatus()
        : Serialization.clone(current);
    if (!Objects.equals(s.getState(), state)) {
      s.setState(state);
      s.setLastTransitionTime(timestamp(now));
    }
    OpsTaskLastOperation op = s.getLastOperation() == null ? new OpsTaskLastOperation()
        : s.getLastOperation();
    boolean changed = !Objects.equals(op.getType(), opType)
        || !Objects.equals(op.getState(), opState);
    op.setType(opType);
    op.setState(opState);
    op.setDescription(description);
    op.setRunID(runId);
    if (changed || op.getLastTransitionTime() == null) {
      op.setLastTransitionTime(timestamp(now));
    }
    s.setLastOperation(op);
    return s;
  }

  private static List<LastError> lastErrors(List<TaskError> errors, Instant now) {
    return errors.stream().map(e -> {
      LastError l = new LastError();
      l.setCode(e.code());
      l.setDescription(e.description());
      l.setObservedAt(timestamp(now));
      return l;
    }).toList();
  }

  static String describe(List<TaskError> errors) {
    return String.join("; ", errors.stream().map(TaskError::description).toList());
  }

  static String timestamp(Instant now) {
    return now.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
