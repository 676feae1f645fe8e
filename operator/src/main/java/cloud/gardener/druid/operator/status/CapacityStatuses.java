package cloud.gardener.druid.operator.status;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.operator.capacity.CapacityPolicy;
import cloud.gardener.druid.operator.capacity.Rounding;
import cloud.gardener.druid.operator.capacity.SpaceForecast;
import cloud.gardener.druid.operator.capacity.SpaceVerdict;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import java.util.Optional;

/**
 * status.capacity and the SpaceAvailable condition from one observation (pure): the figures
 * rounded ({@link Rounding}), the records of the capacity flow (raised quota, grown storage,
 * compacted revision, last action) carried over as the flow wrote them.
 */
final class CapacityStatuses {

  private CapacityStatuses() {
  }

  static CapacityStatus compute(ClusterSnapshot s, CapacityStatus previous) {
    CapacityStatus prev = previous == null ? new CapacityStatus() : previous;
    CapacityStatus next = new CapacityStatus();
    SpaceForecast f = SpaceForecast.of(s);
    if (f.reported()) {
      next.setDbSize(Rounding.bytes(f.dbSizeBytes()));
      next.setDbSizeInUse(Rounding.bytes(f.dbSizeInUseBytes()));
      next.setQuota(Rounding.bytes(f.quotaBytes()));
      next.setVolumeSize(f.volumeBytes() > 0 ? Rounding.bytes(f.volumeBytes()) : null);
      next.setVolumeFree(f.volumeBytes() > 0 ? Rounding.bytes(f.volumeFreeBytes()) : null);
      next.setWritesPerSecond(Rounding.rate(f.writesPerSecond()));
      next.setGrowthPerHour(Rounding.bytes((long) Math.max(0, f.growthBytesPerSecond() * 3600)));
      next.setTimeToQuota(Rounding.forecast(f.timeToQuota()).orElse(null));
      next.setTimeToVolumeFull(Rounding.forecast(f.timeToVolumeFull()).orElse(null));
    } else if (s.replicas() > 0) {
      // an agent silent for one observation does not erase the figures
      next.setDbSize(prev.getDbSize());
      next.setDbSizeInUse(prev.getDbSizeInUse());
      next.setQuota(prev.getQuota());
      next.setVolumeSize(prev.getVolumeSize());
      next.setVolumeFree(prev.getVolumeFree());
      next.setWritesPerSecond(prev.getWritesPerSecond());
      next.setGrowthPerHour(prev.getGrowthPerHour());
      next.setTimeToQuota(prev.getTimeToQuota());
      next.setTimeToVolumeFull(prev.getTimeToVolumeFull());
    }
    next.setRaisedQuota(prev.getRaisedQuota());
    next.setGrownStorage(prev.getGrownStorage());
    next.setCompactedRevision(prev.getCompactedRevision());
    next.setLastAction(prev.getLastAction());
    next.setLastActionTime(prev.getLastActionTime());
    return empty(next) ? null : next;
  }

  /** SpaceAvailable, for an Etcd with members; empty when hibernated. */
  static Optional<Condition> condition(ClusterSnapshot s) {
    if (s.replicas() == 0) {
      return Optional.empty();
    }
    SpaceVerdict v = SpaceVerdict.of(SpaceForecast.of(s), CapacityPolicy.of(s.etcd()));
    return Optional.of(Conditions.of(ConditionTypes.SPACE_AVAILABLE, v.status(), v.reason(),
        v.message()));
  }

  private static boolean empty(CapacityStatus c) {
    return c.getDbSize() == null && c.getRaisedQuota() == null && c.getGrownStorage() == null
        && c.getCompactedRevision() == null && c.getLastAction() == null;
  }
}
