package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.ByteSizes;
import java.util.Optional;

/**
 * The SpaceAvailable condition of a forecast (pure): False while etcd's NOSPACE alarm is
 * raised, or while the quota or a volume is forecast to run out with nothing automatic left to
 * do about it (no maxQuota, the quota at maxQuota, nothing to defragment); True otherwise.
 * Its message holds only rounded figures, so it changes only when they do.
 */
public record SpaceVerdict(String status, String reason, String message) {

  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  public static SpaceVerdict of(SpaceForecast f, CapacityPolicy p) {
    if (!f.reported()) {
      return new SpaceVerdict(UNKNOWN, "NotReported",
          "No member's agent has reported its space yet.");
    }
    if (!f.noSpace().isEmpty()) {
      return new SpaceVerdict(FALSE, "NoSpaceAlarm", "etcd's NOSPACE alarm is raised on "
          + String.join(", ", f.noSpace().stream().map(MemberForecast::name).toList())
          + ": writes are refused; " + f.describe() + ". " + (p.automatic()
              ? "Recovering: " + (p.compactOnNoSpace() ? "compact, " : "")
                  + "defragment, disarm the alarm once every member is below its quota."
              : "Automatic actions are off: compact, defragment and disarm by hand."));
    }
    boolean reclaimable = f.members().stream().anyMatch(Pressure::worthDefragmenting);
    Optional<String> inUse = Pressure.inUse(f, p);
    if (inUse.isPresent() && !reclaimable) {
      if (p.maxQuotaBytes().isEmpty()) {
        return new SpaceVerdict(FALSE, "QuotaForecast", "The data in use grows toward the"
            + " quota: " + inUse.get() + ". Raising the quota is off (set"
            + " spec.etcd.capacity.maxQuota, or raise spec.etcd.quota).");
      }
      if (f.quotaBytes() >= p.maxQuotaBytes().getAsLong()) {
        return new SpaceVerdict(FALSE, "QuotaAtMaximum", "The data in use grows toward the"
            + " quota, which is at spec.etcd.capacity.maxQuota ("
            + ByteSizes.of(p.maxQuotaBytes().getAsLong()) + "): " + inUse.get() + ".");
      }
    }
    Optional<String> volume = f.timeToVolumeFull()
        .filter(d -> d.compareTo(p.defragmentWithin()) < 0)
        .flatMap(d -> Rounding.forecast(Optional.of(d)));
    if (volume.isPresent() && !reclaimable) {
      return new SpaceVerdict(FALSE, "VolumeForecast", "A member's volume is forecast to be"
          + " full in ~" + volume.get() + ": " + f.describe() + ".");
    }
    return new SpaceVerdict(TRUE, "Headroom", "Database " + f.describe() + ".");
  }
}
