package cloud.gardener.druid.operator.task;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.operator.task.TaskTransitions.Phase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskTransitionsTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aTaskGoesPendingInProgressSucceededWithStartedAtSetOnceAndTransitionTimesPerState() {
    EtcdOpsTaskStatus pending = TaskTransitions.pending(null, "checks", "run", T0);
    assertThat(pending.getState()).isEqualTo("Pending");
    assertThat(pending.getStartedAt()).isNull();
    assertThat(pending.getLastOperation().getType()).isEqualTo("Admit");
    assertThat(pending.getLastOperation().getState()).isEqualTo("InProgress");

    EtcdOpsTaskStatus waiting = TaskTransitions.pending(pending, "waiting for a", "run",
        T0.plusSeconds(5));
    assertThat(waiting.getLastTransitionTime()).as("no state change").isEqualTo("2026-01-01T00:00:00Z");
    assertThat(waiting.getLastOperation().getDescription()).isEqualTo("waiting for a");

    EtcdOpsTaskStatus running = TaskTransitions.inProgress(waiting, "go", "run", T0.plusSeconds(10));
    assertThat(running.getState()).isEqualTo("InProgress");
    assertThat(running.getStartedAt()).isEqualTo("2026-01-01T00:00:10Z");
    assertThat(running.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:10Z");
    assertThat(running.getLastOperation().getType()).isEqualTo("Execution");

    EtcdOpsTaskStatus done = TaskTransitions.succeeded(running, "snapshot at 42", "run",
        T0.plusSeconds(20));
    assertThat(done.getState()).isEqualTo("Succeeded");
    assertThat(done.getStartedAt()).isEqualTo("2026-01-01T00:00:10Z");
    assertThat(done.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:20Z");
    assertThat(done.getLastOperation().getState()).isEqualTo("Completed");
    assertThat(done.getLastOperation().getDescription()).isEqualTo("snapshot at 42");
    assertThat(done.isFinished()).isTrue();
    assertThat(running.getState()).as("arguments unchanged").isEqualTo("InProgress");
  }

  @Test
  void rejectionAndFailureRecordTheirErrors() {
    EtcdOpsTaskStatus pending = TaskTransitions.pending(null, "checks", "run", T0);
    List<TaskError> errors = List.of(new TaskError("ERR_X", "spec.etcdName: no such Etcd"));
    EtcdOpsTaskStatus rejected = TaskTransitions.rejected(pending, errors, "run", T0);
    assertThat(rejected.getState()).isEqualTo("Rejected");
    assertThat(rejected.getLastOperation().getType()).isEqualTo("Admit");
    assertThat(rejected.getLastOperation().getState()).isEqualTo("Failed");
    assertThat(rejected.getLastErrors()).singleElement().satisfies(e -> {
      assertThat(e.getCode()).isEqualTo("ERR_X");
      assertThat(e.getDescription()).isEqualTo("spec.etcdName: no such Etcd");
      assertThat(e.getObservedAt()).isEqualTo("2026-01-01T00:00:00Z");
    });
    EtcdOpsTaskStatus failed = TaskTransitions.failed(
        TaskTransitions.inProgress(pending, "go", "run", T0), errors, "run", T0);
    assertThat(failed.getState()).isEqualTo("Failed");
    assertThat(failed.getLastOperation().getType()).isEqualTo("Execution");
    assertThat(failed.getLastOperation().getState()).isEqualTo("Failed");
    assertThat(failed.getLastErrors()).hasSize(1);
  }

  @Test
  void phasesFollowTheState() {
    EtcdOpsTask task = Tasks.snapshot("s", "main", "2026-01-01T00:00:00Z");
    assertThat(TaskTransitions.phase(task)).isEqualTo(Phase.NEW);
    for (String[] c : new String[][] {{"Pending", "ADMIT"}, {"InProgress", "EXECUTE"},
        {"Succeeded", "FINISHED"}, {"Failed", "FINISHED"}, {"Rejected", "FINISHED"}}) {
      Tasks.withState(task, c[0], null);
      assertThat(TaskTransitions.phase(task)).as(c[0]).isEqualTo(Phase.valueOf(c[1]));
    }
  }

  @Test
  void aFinishedTaskExpiresItsTtlAfterItsLastTransitionDefaultingToAnHour() {
    EtcdOpsTask task = Tasks.withState(Tasks.snapshot("s", "main", "2026-01-01T00:00:00Z"),
        "Succeeded", "2026-01-01T00:00:00Z");
    assertThat(TaskTransitions.untilExpiry(task, T0.plusSeconds(600)))
        .isEqualTo(Duration.ofSeconds(3000));
    task.getSpec().setTtlSecondsAfterFinished(5);
    assertThat(TaskTransitions.untilExpiry(task, T0.plusSeconds(2))).isEqualTo(Duration.ofSeconds(3));
    assertThat(TaskTransitions.untilExpiry(task, T0.plusSeconds(5))).isZero();
    assertThat(TaskTransitions.untilExpiry(task, T0.plusSeconds(9))).isNegative();
  }

  @Test
  void cleanupKeepsTheStateAndRecordsTheCleanupOperation() {
    EtcdOpsTaskStatus done = TaskTransitions.succeeded(
        TaskTransitions.inProgress(null, "go", "run", T0), "ok", "run", T0);
    EtcdOpsTaskStatus cleanup = TaskTransitions.cleanup(done, "deleting", "run", T0.plusSeconds(9));
    assertThat(cleanup.getState()).isEqualTo("Succeeded");
    assertThat(cleanup.getLastTransitionTime()).isEqualTo(done.getLastTransitionTime());
    assertThat(cleanup.getLastOperation().getType()).isEqualTo("Cleanup");
    assertThat(cleanup.getLastOperation().getLastTransitionTime()).isEqualTo("2026-01-01T00:00:09Z");
  }
}
