package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * How an InProgress volume task (replaceMemberVolume, recoverFromQuorumLoss) learns its end
 * (pure). The Etcd reconciler carries the task out and records it in the Etcd's
 * {@code status.volumeOperation} with {@code task} = the task's name; phase Completed ends the
 * task Succeeded, phase Failed ends it Failed with the Etcd's {@code lastErrors}. A volume
 * operation that started before the task did (a finished one of an earlier task of the same
 * name) is not this task's.
 */
public final class VolumeHandshake {

  /** The end of a volume task. */
  public record Outcome(boolean succeeded, String description, List<TaskError> errors) {
  }

  private VolumeHandshake() {
  }

  /** Empty while the task is still being carried out (or not yet picked up). */
  public static Optional<Outcome> outcome(EtcdOpsTask task, TaskKind kind, Optional<Etcd> etcd) {
    String etcdName = task.getSpec().getEtcdName();
    if (etcd.isEmpty()) {
      return Optional.of(new Outcome(false, "Etcd " + etcdName + " is gone",
          List.of(new TaskError(TaskError.ETCD_NOT_FOUND, "spec.etcdName: Etcd \"" + etcdName
              + "\" was deleted while the task was in progress"))));
    }
    VolumeOperation vo = etcd.get().getStatus() == null ? null
        : etcd.get().getStatus().getVolumeOperation();
    if (vo == null || !task.getMetadata().getName().equals(vo.getTask())
        || !kind.volumeOperationType().orElse("").equals(vo.getType())
        || startedBefore(vo, task)) {
      return Optional.empty();
    }
    String what = vo.getType() + (vo.getCurrentMember() == null ? ""
        : " of member " + vo.getCurrentMember());
    if (VolumeOperation.PHASE_COMPLETED.equals(vo.getPhase())) {
      return Optional.of(new Outcome(true, "Etcd " + etcdName + " completed " + what, List.of()));
    }
    if (VolumeOperation.PHASE_FAILED.equals(vo.getPhase())) {
      List<LastError> etcdErrors = etcd.get().getStatus().getLastErrors();
      List<TaskError> errors = etcdErrors == null || etcdErrors.isEmpty()
          ? List.of(new TaskError(TaskError.VOLUME_OPERATION_FAILED, "Etcd " + etcdName
              + " reported " + what + " failed"))
          : etcdErrors.stream().map(e -> new TaskError(
              e.getCode() == null ? TaskError.VOLUME_OPERATION_FAILED : e.getCode(),
              e.getDescription())).toList();
      return Optional.of(new Outcome(false, "Etcd " + etcdName + " failed " + what, errors));
    }
    return Optional.empty();
  }

  private static boolean startedBefore(VolumeOperation vo, EtcdOpsTask task) {
    String taskStarted = task.getStatus() == null ? null : task.getStatus().getStartedAt();
    if (vo.getStartedAt() == null || taskStarted == null) {
      return false;
    }
    return Instant.parse(vo.getStartedAt()).isBefore(Instant.parse(taskStarted));
  }
}
