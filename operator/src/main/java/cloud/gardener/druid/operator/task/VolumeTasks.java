package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig.Source;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.volume.VolumeTaskSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;

/**
 * For the Etcd reconciler: the volume task (replaceMemberVolume or recoverFromQuorumLoss) the
 * task controller admitted for an Etcd and that is now to be carried out. Reads the tasks
 * straight from the API server (never a cache), so a task admitted just before is seen.
 *
 * <p>Handshake: the task controller admits the task (state InProgress, at most one task per
 * Etcd at a time). The Etcd reconciler writes {@code status.volumeOperation} with {@code task}
 * = {@link VolumeTask#name()}, {@code type} = {@link VolumeTask#type()} and {@code startedAt},
 * and at the end phase Completed, or Failed with a {@code lastErrors} entry on the Etcd; the
 * task controller then ends the task Succeeded or Failed.
 */
public final class VolumeTasks {

  /**
   * An admitted volume task.
   *
   * @param name the task's name, for {@code status.volumeOperation.task}
   * @param type {@code VolumeOperation.TYPE_REPLACE_MEMBER_VOLUME} or
   *     {@code TYPE_RECOVER_FROM_QUORUM_LOSS}
   * @param memberName the member whose volume to replace; for a recovery with source Member,
   *     the member whose data to use
   * @param recoverySource for a recovery: where the data comes from (Auto when unset)
   * @param startedAt when the task went InProgress (RFC 3339)
   */
  public record VolumeTask(String name, String type, Optional<String> memberName,
      Optional<Source> recoverySource, String startedAt) {
  }

  private VolumeTasks() {
  }

  /** The InProgress volume task of {@code etcd}, if any (the oldest should there be several). */
  public static Optional<VolumeTask> inProgress(KubernetesClient client, Etcd etcd) {
    List<EtcdOpsTask> tasks = client.resources(EtcdOpsTask.class)
        .inNamespace(etcd.getMetadata().getNamespace()).list().getItems();
    return inProgress(tasks, etcd.getMetadata().getName());
  }

  /** {@link #inProgress} as the Etcd reconciler's source of volume tasks. */
  public static VolumeTaskSource source(KubernetesClient client) {
    return etcd -> inProgress(client, etcd).map(VolumeTasks::toVolumeTask);
  }

  static cloud.gardener.druid.operator.volume.VolumeTask toVolumeTask(VolumeTask t) {
    return new cloud.gardener.druid.operator.volume.VolumeTask(t.name(), t.type(),
        VolumeOperation.TYPE_REPLACE_MEMBER_VOLUME.equals(t.type())
            ? t.memberName() : Optional.empty());
  }

  static Optional<VolumeTask> inProgress(List<EtcdOpsTask> tasks, String etcdName) {
    return tasks.stream()
        .filter(t -> t.getSpec() != null && etcdName.equals(t.getSpec().getEtcdName()))
        .filter(t -> t.getStatus() != null
            && EtcdOpsTaskStatus.STATE_IN_PROGRESS.equals(t.getStatus().getState()))
        .filter(t -> TaskKind.single(t).map(TaskKind::byEtcdReconciler).orElse(false))
        .min(TaskAdmission.ORDER)
        .map(VolumeTasks::of);
  }

  static VolumeTask of(EtcdOpsTask t) {
    TaskKind kind = TaskKind.single(t).orElseThrow();
    var config = t.getSpec().getConfig();
    if (kind == TaskKind.REPLACE_MEMBER_VOLUME) {
      return new VolumeTask(t.getMetadata().getName(), kind.volumeOperationType().orElseThrow(),
          Optional.ofNullable(config.getReplaceMemberVolume().getMemberName()), Optional.empty(),
          t.getStatus().getStartedAt());
    }
    RecoverFromQuorumLossConfig r = config.getRecoverFromQuorumLoss();
    return new VolumeTask(t.getMetadata().getName(), kind.volumeOperationType().orElseThrow(),
        Optional.ofNullable(r.getMemberName()),
        Optional.of(r.getSource() == null ? Source.AUTO : r.getSource()),
        t.getStatus().getStartedAt());
  }
}
