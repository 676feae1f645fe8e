package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.util.Set;

/**
 * Says, in an event, what a pending volume change will do and how to confirm it (or why it
 * cannot be done) when VolumesUpToDate turns to such a reason: before anything is deleted.
 */
final class VolumeEvents {

  private static final Set<String> ANNOUNCED = Set.of("AwaitingConfirmation", "NoBackupStore");

  private final EventRecorder events;

  VolumeEvents(EventRecorder events) {
    this.events = events;
  }

  void announce(Etcd etcd, EtcdStatus next) {
    ConditionChange.of(etcd.getStatus(), next, ConditionTypes.VOLUMES_UP_TO_DATE)
        .filter(volumes -> ANNOUNCED.contains(volumes.getReason()))
        .ifPresent(volumes -> {
          if ("NoBackupStore".equals(volumes.getReason())) {
            events.warning(etcd, "VolumeReplacementRefused", volumes.getMessage());
          } else {
            events.normal(etcd, "VolumeReplacementPending", volumes.getMessage());
          }
        });
  }
}
