package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * A Warning event when the condition UpstreamFieldsIgnored appears or names other fields: the
 * spec sets upstream fields this operator does not act on (status/UpstreamFields).
 */
final class UpstreamFieldEvents {

  static final String REASON = "UpstreamFieldsIgnored";

  private final EventRecorder events;

  UpstreamFieldEvents(EventRecorder events) {
    this.events = events;
  }

  void announce(Etcd etcd, EtcdStatus next) {
    Optional<Condition> now = ignored(next);
    if (now.isEmpty()) {
      return;
    }
    Optional<Condition> before = ignored(etcd.getStatus());
    if (before.isEmpty() || !Objects.equals(before.get().getMessage(), now.get().getMessage())) {
      events.warning(etcd, REASON, now.get().getMessage());
    }
  }

  private static Optional<Condition> ignored(EtcdStatus status) {
    return status == null || status.getConditions() == null ? Optional.empty()
        : status.getConditions().stream()
            .filter(c -> ConditionTypes.UPSTREAM_FIELDS_IGNORED.equals(c.getType())).findFirst();
  }
}
