package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The operation an EtcdOpsTask asks for. Snapshots and defragmentation are carried out by the
 * task controller through the agents; volume operations by the Etcd reconciler, which reports
 * back through {@code status.volumeOperation} of the Etcd.
 */
public enum TaskKind {
  ON_DEMAND_SNAPSHOT("onDemandSnapshot", null),
  DEFRAGMENT("defragment", null),
  REPLACE_MEMBER_VOLUME("replaceMemberVolume", VolumeOperation.Kind.REPLACE_MEMBER_VOLUME),
  RECOVER_FROM_QUORUM_LOSS("recoverFromQuorumLoss", VolumeOperation.Kind.RECOVER_FROM_QUORUM_LOSS),
  VERIFY_BACKUPS("verifyBackups", null),
  RETIRE_SOURCE_MEMBERS("retireSourceMembers", null),
  RESTORE_INTO("restoreInto", null),
  UNDELETE("undelete", null);

  private final String field;
  private final VolumeOperation.Kind operation;

  TaskKind(String field, VolumeOperation.Kind operation) {
    this.field = field;
    this.operation = operation;
  }

  /** The field of {@code spec.config} that selects this kind. */
  public String field() {
    return field;
  }

  /** True when the Etcd reconciler carries the task out (a volume operation). */
  public boolean byEtcdReconciler() {
    return operation != null;
  }

  /**
   * True when the task changes the live members or their data (everything but a restore drill
   * and a restore into another Etcd, which read the store only): the capacity flow holds while
   * one is in progress.
   */
  public boolean changesMembers() {
    return this != VERIFY_BACKUPS && this != RESTORE_INTO;
  }

  /** The kind of volume operation that carries this kind of task out, if any. */
  public Optional<VolumeOperation.Kind> volumeOperation() {
    return Optional.ofNullable(operation);
  }

  /** The kinds whose fields are set in the task's config (exactly one for a valid task). */
  public static List<TaskKind> of(EtcdOpsTask task) {
    EtcdOpsTaskConfig c = task.getSpec() == null ? null : task.getSpec().getConfig();
    List<TaskKind> kinds = new ArrayList<>();
    if (c == null) {
      return kinds;
    }
    if (c.getOnDemandSnapshot() != null) {
      kinds.add(ON_DEMAND_SNAPSHOT);
    }
    if (c.getDefragment() != null) {
      kinds.add(DEFRAGMENT);
    }
    if (c.getReplaceMemberVolume() != null) {
      kinds.add(REPLACE_MEMBER_VOLUME);
    }
    if (c.getRecoverFromQuorumLoss() != null) {
      kinds.add(RECOVER_FROM_QUORUM_LOSS);
    }
    if (c.getVerifyBackups() != null) {
      kinds.add(VERIFY_BACKUPS);
    }
    if (c.getRetireSourceMembers() != null) {
      kinds.add(RETIRE_SOURCE_MEMBERS);
    }
    if (c.getRestoreInto() != null) {
      kinds.add(RESTORE_INTO);
    }
    if (c.getUndelete() != null) {
      kinds.add(UNDELETE);
    }
    return kinds;
  }

  /** The single kind of a valid task. */
  public static Optional<TaskKind> single(EtcdOpsTask task) {
    List<TaskKind> kinds = of(task);
    return kinds.size() == 1 ? Optional.of(kinds.get(0)) : Optional.empty();
  }
}
