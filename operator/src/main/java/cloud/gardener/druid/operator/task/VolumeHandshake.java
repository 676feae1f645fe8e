package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.observe.VolumeTask;
import cloud.gardener.druid.operator.observe.VolumeTaskSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The handshake of a volume task (replaceMemberVolume, recoverFromQuorumLoss) between the task
 * controller and the Etcd reconciler, both directions in one place:
 *
 * <ol>
 *   <li>the task controller admits the task (state InProgress, at most one task per Etcd);
 *   <li>the Etcd reconciler finds it ({@link #inProgress}, read straight from the API server,
 *       never a cache, so a task admitted just before is seen) and writes
 *       {@code status.volumeOperation} with {@code task} = the task's name, {@code type} = its
 *       kind and {@code startedAt}, and at the end phase Completed, or Failed with a
 *       {@code lastErrors} entry on the Etcd;
 *   <li>the task controller reads that record ({@link #outcome}) and ends the task Succeeded
 *       or Failed. A volume operation that started before the task did (a finished one of an
 *       earlier task of the same name) is not this task's.
 * </ol>
 */
public final class VolumeHandshake {

  /** The end of a volume task. */
  public record Outcome(boolean succeeded, String description, List<TaskError> errors) {
  }

  private VolumeHandshake() {
  }

  /** The Etcd reconciler's source of volume tasks. */
  public static VolumeTaskSource source(KubernetesClient client) {
    return etcd -> inProgress(client.resources(EtcdOpsTask.class)
        .inNamespace(etcd.getMetadata().getNamespace()).list().getItems(),
        etcd.getMetadata().getName());
  }

  /** The InProgress volume task of Etcd {@code etcdName}, if any (the oldest of several). */
  static Optional<VolumeTask> inProgress(List<EtcdOpsTask> tasks, String etcdName) {
    return TasksInProgress.of(tasks, etcdName)
        .filter(t -> TaskKind.single(t).map(TaskKind::byEtcdReconciler).orElse(false))
        .min(TaskAdmission.ORDER)
        .map(VolumeHandshake::of);
  }

  static VolumeTask of(EtcdOpsTask t) {
    TaskKind kind = TaskKind.single(t).orElseThrow();
    var config = t.getSpec().getConfig();
    String name = t.getMetadata().getName();
    VolumeOperation.Kind operation = kind.volumeOperation().orElseThrow();
    if (kind == TaskKind.REPLACE_MEMBER_VOLUME) {
      return new VolumeTask(name, operation,
          Optional.ofNullable(config.getReplaceMemberVolume().getMemberName()));
    }
    RecoverFromQuorumLossConfig r = config.getRecoverFromQuorumLoss();
    return new VolumeTask(name, operation, Optional.ofNullable(r.getMemberName()));
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
        || kind.volumeOperation().isEmpty()
        || !kind.volumeOperation().equals(vo.kind())
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
