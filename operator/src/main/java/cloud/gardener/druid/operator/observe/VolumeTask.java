package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.Optional;

/**
 * An admitted EtcdOpsTask on volumes (replaceMemberVolume or recoverFromQuorumLoss) that the
 * Etcd reconciler carries out; found and ended by the task package's {@code VolumeHandshake}.
 *
 * @param name the task's name (recorded in status.volumeOperation.task)
 * @param operation the kind of volume operation that carries the task out: REPLACE_MEMBER_VOLUME
 *     or RECOVER_FROM_QUORUM_LOSS
 * @param memberName the member whose volume is replaced; for a recovery with source Member,
 *     the member whose data to use
 */
public record VolumeTask(String name, VolumeOperation.Kind operation,
    Optional<String> memberName) {

  public VolumeTask {
    if (operation != VolumeOperation.Kind.REPLACE_MEMBER_VOLUME
        && operation != VolumeOperation.Kind.RECOVER_FROM_QUORUM_LOSS) {
      throw new IllegalArgumentException("no EtcdOpsTask is carried out by " + operation);
    }
  }

  /** The member whose volume a replaceMemberVolume task replaces; empty for other kinds. */
  public Optional<String> member() {
    return operation == VolumeOperation.Kind.REPLACE_MEMBER_VOLUME ? memberName
        : Optional.empty();
  }
}
