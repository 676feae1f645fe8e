package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.types.Quantities;
import cloud.gardener.druid.api.v1alpha1.CapacitySpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * spec.etcd.capacity with its defaults (docs/capacity.md).
 *
 * @param automatic act on the forecasts (else report only)
 * @param defragmentWithin defragment when the quota or a full volume is forecast sooner
 * @param highWaterPercent defragment when a database is this share of the quota or more
 * @param fragmentationPercent defragment when this share of a database is free pages
 * @param maxQuotaBytes how far the quota may be raised; empty: never
 * @param compactOnNoSpace compact to the current revision in a NOSPACE recovery
 */
public record CapacityPolicy(boolean automatic, Duration defragmentWithin, int highWaterPercent,
    int fragmentationPercent, OptionalLong maxQuotaBytes, boolean compactOnNoSpace) {

  public static final Duration DEFRAGMENT_WITHIN = Duration.ofHours(6);
  public static final int HIGH_WATER_PERCENT = 80;
  public static final int FRAGMENTATION_PERCENT = 50;

  public static CapacityPolicy of(Etcd etcd) {
    CapacitySpec c = Optional.ofNullable(etcd.getSpec().getEtcd())
        .map(e -> e.getCapacity()).orElseGet(CapacitySpec::new);
    return new CapacityPolicy(!Boolean.FALSE.equals(c.getAutomatic()),
        Optional.ofNullable(c.getDefragmentWithin()).filter(GoDuration::isValid)
            .map(GoDuration::toDuration).orElse(DEFRAGMENT_WITHIN),
        Optional.ofNullable(c.getHighWaterPercent()).orElse(HIGH_WATER_PERCENT),
        Optional.ofNullable(c.getFragmentationPercent()).orElse(FRAGMENTATION_PERCENT),
        c.getMaxQuota() == null || Quantities.validate(c.getMaxQuota()).isPresent()
            ? OptionalLong.empty() : OptionalLong.of(Quantities.bytesLong(c.getMaxQuota())),
        Boolean.TRUE.equals(c.getCompactOnNoSpace()));
  }
}
