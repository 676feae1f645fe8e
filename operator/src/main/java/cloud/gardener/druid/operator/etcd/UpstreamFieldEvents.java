package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;

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
    ConditionChange.of(etcd.getStatus(), next, ConditionTypes.UPSTREAM_FIELDS_IGNORED)
        .ifPresent(ignored -> events.warning(etcd, REASON, ignored.getMessage()));
  }
}
