package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.observe.VolumeTask;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.Optional;

/**
 * What an observation read about an Etcd's volumes besides the claims: whether the desired
 * StorageClass allows expansion, the volume operation recorded in the Etcd's status (read
 * fresh, never from a cache) and the volume task in progress.
 *
 * @param classExpandable whether the desired StorageClass allows volume expansion
 * @param recorded the operation in status.volumeOperation, finished or not
 * @param task the EtcdOpsTask on volumes in progress for this Etcd
 */
public record VolumeView(boolean classExpandable, Optional<VolumeOperation> recorded,
    Optional<VolumeTask> task) {

  public static VolumeView none() {
    return new VolumeView(false, Optional.empty(), Optional.empty());
  }

  /** The recorded operation unless it is finished. */
  public Optional<VolumeOperation> active() {
    return recorded.filter(op -> !op.isFinished());
  }
}
