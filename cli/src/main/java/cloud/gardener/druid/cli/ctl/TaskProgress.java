package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.Optional;

/** One line of a task's progress: its state, what it did last, and the volume step it drives. */
final class TaskProgress {

  private TaskProgress() {
  }

  static String line(EtcdOpsTask task, Etcd etcd) {
    EtcdOpsTaskStatus s = task.getStatus();
    if (s == null || s.getState() == null) {
      return "Pending: waiting for the operator to admit the task";
    }
    StringBuilder line = new StringBuilder(s.getState());
    if (s.getLastOperation() != null && s.getLastOperation().getDescription() != null) {
      line.append(": ").append(s.getLastOperation().getDescription());
    }
    if (s.getLastErrors() != null && !s.getLastErrors().isEmpty()) {
      line.append(" (error ").append(s.getLastErrors().get(0).getCode()).append(": ")
          .append(s.getLastErrors().get(0).getDescription()).append(')');
    }
    volumeStep(task, etcd).ifPresent(v -> line.append(" [").append(v).append(']'));
    return line.toString();
  }

  /** The Etcd's volume operation when this task drives it: phase, member, members done of all. */
  static Optional<String> volumeStep(EtcdOpsTask task, Etcd etcd) {
    if (etcd == null || etcd.getStatus() == null) {
      return Optional.empty();
    }
    VolumeOperation op = etcd.getStatus().getVolumeOperation();
    if (op == null || !task.getMetadata().getName().equals(op.getTask())) {
      return Optional.empty();
    }
    return Optional.of(volumeProgress(op, etcd));
  }

  /** E.g. "Replace: phase Replacing, member etcd-main-1, 1 of 3 members done". */
  static String volumeProgress(VolumeOperation op, Etcd etcd) {
    int done = op.getCompletedMembers() == null ? 0 : op.getCompletedMembers().size();
    Integer replicas = VolumeOperation.TYPE_REPLACE_MEMBER_VOLUME.equals(op.getType())
        ? Integer.valueOf(1) : etcd.getSpec() == null ? null : etcd.getSpec().getReplicas();
    return op.getType() + ": phase " + op.getPhase()
        + (op.getCurrentMember() == null ? "" : ", member " + op.getCurrentMember())
        + (replicas == null ? "" : ", " + done + " of " + replicas + " members done")
        + (op.getSnapshotRevision() == null ? ""
            : ", full snapshot at revision " + op.getSnapshotRevision());
  }
}
