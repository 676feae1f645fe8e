package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.observe.VolumeTask;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import java.util.Optional;

/** Finds the EtcdOpsTask on volumes in progress for an Etcd (a fresh read, not a cache). */
@FunctionalInterface
public interface VolumeTaskSource {

  Optional<VolumeTask> inProgress(Etcd etcd);
}
