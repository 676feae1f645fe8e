package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * A condition that a status write brings in or changes: what an event announces once, not at
 * every reconcile that writes the same status again.
 */
final class ConditionChange {

  private ConditionChange() {
  }

  /**
   * The condition of {@code type} in {@code next}, unless {@code before} has one of that type
   * with the same reason and message. Either status may be null (none written yet).
   */
  static Optional<Condition> of(EtcdStatus before, EtcdStatus next, String type) {
    Optional<Condition> was = find(before, type);
    return find(next, type).filter(now -> was.isEmpty()
        || !Objects.equals(was.get().getReason(), now.getReason())
        || !Objects.equals(was.get().getMessage(), now.getMessage()));
  }

  private static Optional<Condition> find(EtcdStatus status, String type) {
    return status == null ? Optional.empty() : Condition.find(status.getConditions(), type);
  }
}
