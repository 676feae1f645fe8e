package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.util.Objects;
import java.util.Optional;
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
    Optional<Condition> now = volumes(next);
    if (now.isEmpty() || !ANNOUNCED.contains(now.get().getReason())) {
      return;
    }
    Optional<Condition> before = volumes(etcd.getStatus());
    boolean same = before.isPresent()
        && Objects.equals(before.get().getReason(), now.get().getReason())
        && Objects.equals(before.get().getMessage(), now.get().getMessage());
    if (!same) {
      if ("NoBackupStore".equals(now.get().getReason())) {
        events.warning(etcd, "VolumeReplacementRefused", now.get().getMessage());
      } else {
        events.normal(etcd, "VolumeReplacementPending", now.get().getMessage());
      }
    }
  }

  private static Optional<Condition> volumes(EtcdStatus status) {
    return status == null || status.getConditions() == null ? Optional.empty()
        : status.getConditions().stream()
            .filter(c -> ConditionTypes.VOLUMES_UP_TO_DATE.equals(c.getType())).findFirst();
  }
}
