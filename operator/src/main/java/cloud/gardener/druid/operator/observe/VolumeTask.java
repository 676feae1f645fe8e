package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.Optional;

/**
 * An admitted EtcdOpsTask on volumes (replaceMemberVolume or recoverFromQuorumLoss) that the
 * Etcd reconciler carries out; found and ended by the task package's {@code VolumeHandshake}.
 *
 * @param name the task's name (recorded in status.volumeOperation.task)
 * @param kind which of the two tasks
 * @param memberName the member whose volume is replaced; for a recovery with source Member,
 *     the member whose data to use
 */
public record VolumeTask(String name, Kind kind, Optional<String> memberName) {

  /** The volume tasks, each carried out by one kind of volume operation. */
  public enum Kind {
    REPLACE_MEMBER_VOLUME(VolumeOperation.Kind.REPLACE_MEMBER_VOLUME),
    RECOVER_FROM_QUORUM_LOSS(VolumeOperation.Kind.RECOVER_FROM_QUORUM_LOSS);

    private final VolumeOperation.Kind operation;

    Kind(VolumeOperation.Kind operation) {
      this.operation = operation;
    }

    /** The kind of {@code status.volumeOperation} that carries the task out. */
    public VolumeOperation.Kind operation() {
      return operation;
    }
  }

  /** The member whose volume a replaceMemberVolume task replaces; empty for other kinds. */
  public Optional<String> member() {
    return kind == Kind.REPLACE_MEMBER_VOLUME ? memberName : Optional.empty();
  }
}
