package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.types.GoDuration;
import java.time.Duration;
import java.util.Optional;

/** The thresholds of spec.etcd.capacity applied to a forecast (pure): why act, if at all. */
final class Pressure {

  private Pressure() {
  }

  /**
   * A defragmentation gives back enough: at least a twentieth of the quota (and 1 MiB), or it
   * is not worth blocking the member for.
   */
  static boolean worthDefragmenting(MemberForecast m) {
    return m.reclaimableBytes() >= Math.max(CapacityPlan.MIB, m.space().quotaBytes() / 20);
  }

  /** Why to defragment now: the first threshold a member worth defragmenting crosses. */
  static Optional<String> defragmentation(SpaceForecast f, CapacityPolicy p) {
    for (MemberForecast m : f.members()) {
      if (!worthDefragmenting(m)) {
        continue;
      }
      Optional<String> why = soon(m.timeToQuota(), p.defragmentWithin(), "the quota")
          .or(() -> soon(m.timeToVolumeFull(), p.defragmentWithin(), "a full volume"))
          .or(() -> m.quotaPercent() >= p.highWaterPercent() ? Optional.of(m.quotaPercent()
              + "% of the quota is used (highWaterPercent " + p.highWaterPercent() + ")")
              : Optional.empty())
          .or(() -> m.fragmentationPercent() >= p.fragmentationPercent()
              && m.reclaimableBytes() >= m.space().quotaBytes() / 10
              ? Optional.of(m.fragmentationPercent() + "% of the database is free pages"
                  + " (fragmentationPercent " + p.fragmentationPercent() + ")")
              : Optional.empty());
      if (why.isPresent()) {
        return Optional.of(m.name() + ": " + why.get() + "; " + f.describe());
      }
    }
    return Optional.empty();
  }

  /** Why the data in use itself needs a larger quota: it reaches the quota soon or is high. */
  static Optional<String> inUse(SpaceForecast f, CapacityPolicy p) {
    long quota = f.quotaBytes();
    Optional<String> soon = soon(f.inUseTimeToQuota(), p.defragmentWithin(),
        "the quota with the data in use");
    if (soon.isPresent()) {
      return Optional.of(soon.get() + "; " + f.describe());
    }
    return quota > 0 && f.dbSizeInUseBytes() * 100 >= quota * p.highWaterPercent()
        ? Optional.of("the data in use is " + (f.dbSizeInUseBytes() * 100 / quota)
            + "% of the quota (highWaterPercent " + p.highWaterPercent() + "); " + f.describe())
        : Optional.empty();
  }

  private static Optional<String> soon(Optional<Duration> eta, Duration within, String what) {
    return eta.filter(d -> d.compareTo(within) < 0)
        .map(d -> "forecast to reach " + what + " in ~" + Rounding.forecast(Optional.of(d))
            .orElse("?") + " (defragmentWithin " + GoDuration.of(within).text() + ")");
  }
}
