package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.Optional;

/**
 * Where the observation reads the current volume operation of an Etcd (its
 * {@code status.volumeOperation}): the one recorder that writes it, which knows its last write
 * even while the caches do not show it yet.
 */
@FunctionalInterface
public interface VolumeRecords {

  /** The volume operation recorded for {@code etcd} (as read, or newer), finished or not. */
  Optional<VolumeOperation> current(Etcd etcd);
}
