package cloud.gardener.druid.agent.gc;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which snapshots garbage collection deletes: a pure function of the listing, the policy and
 * the time (UTC). Both policies always keep the newest full snapshot and the deltas after
 * it (a restore needs them). Deltas before the newest full snapshot are kept for the delta
 * retention period ({@code deltaSnapshotRetentionPeriod}, by their creation time) and
 * deleted after it; with a period of zero, the default, they are deleted at once.
 * <ul>
 *   <li>{@code LimitBased}: keeps the newest {@code maxBackups} full snapshots.</li>
 *   <li>{@code Exponential}: keeps every full snapshot of the current hour, the newest per
 *   hour for the last 24 hours, the newest per day for the last 7 days and the newest per
 *   week (Monday-based) for the last 4 weeks.</li>
 * </ul>
 */
public final class GarbageCollector {

  private GarbageCollector() {
  }

  public static List<Snapshot> toDelete(List<Snapshot> snapshots,
      GarbageCollectionPolicy policy, int maxBackups, Duration deltaRetention, Instant now) {
    List<Snapshot> fulls = snapshots.stream().filter(Snapshot::isFull)
        .sorted(newestFirst()).toList();
    if (fulls.isEmpty()) {
      return List.of();
    }
    Snapshot newest = fulls.get(0);
    Set<Snapshot> keep = new HashSet<>(policy == GarbageCollectionPolicy.LimitBased
        ? fulls.subList(0, Math.min(Math.max(maxBackups, 1), fulls.size()))
        : exponential(fulls, now));
    keep.add(newest);
    Instant deltasKeptFrom = now.minus(deltaRetention);
    return snapshots.stream()
        .filter(s -> s.isFull() ? !keep.contains(s)
            : s.endRevision() <= newest.endRevision() && s.createdOn().isBefore(deltasKeptFrom))
        .sorted(Snapshot.ORDER)
        .toList();
  }

  private static Comparator<Snapshot> newestFirst() {
    return Comparator.comparing(Snapshot::createdOn)
        .thenComparingLong(Snapshot::endRevision).reversed();
  }

  private static List<Snapshot> exponential(List<Snapshot> newestFirst, Instant now) {
    ZonedDateTime hour = now.atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS);
    Set<String> buckets = new HashSet<>();
    return newestFirst.stream().filter(s -> {
      Optional<String> bucket = bucket(s.createdOn().atZone(ZoneOffset.UTC), hour);
      return bucket.isPresent() && (bucket.get().equals("current") || buckets.add(bucket.get()));
    }).toList();
  }

  /** The bucket a snapshot competes in for "newest per ..."; empty when too old to keep. */
  private static Optional<String> bucket(ZonedDateTime at, ZonedDateTime currentHour) {
    if (!at.isBefore(currentHour)) {
      return Optional.of("current");
    }
    if (!at.isBefore(currentHour.minusHours(24))) {
      return Optional.of("hour " + at.truncatedTo(ChronoUnit.HOURS));
    }
    ZonedDateTime today = currentHour.truncatedTo(ChronoUnit.DAYS);
    if (!at.isBefore(today.minusDays(7))) {
      return Optional.of("day " + at.truncatedTo(ChronoUnit.DAYS));
    }
    ZonedDateTime thisWeek = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    if (!at.isBefore(thisWeek.minusWeeks(4))) {
      return Optional.of("week " + at.truncatedTo(ChronoUnit.DAYS)
          .with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)));
    }
    return Optional.empty();
  }
}
