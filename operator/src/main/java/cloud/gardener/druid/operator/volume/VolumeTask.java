package cloud.gardener.druid.operator.volume;

import java.util.Optional;

/**
 * An EtcdOpsTask in progress that the Etcd reconciler carries out on volumes.
 *
 * @param name the task's name (recorded in status.volumeOperation.task)
 * @param type {@code ReplaceMemberVolume} or {@code RecoverFromQuorumLoss}
 * @param member the member whose volume is replaced (ReplaceMemberVolume only)
 */
public record VolumeTask(String name, String type, Optional<String> member) {
}
