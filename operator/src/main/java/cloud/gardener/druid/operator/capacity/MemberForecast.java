package cloud.gardener.druid.operator.capacity;

import cloud.gardener.druid.api.agent.MemberSpace;
import java.time.Duration;
import java.util.Optional;

/**
 * One member's space and its forecast (pure).
 *
 * @param volumeBytes the member's volume: the smaller of its file system and its claim (on a
 *     node whose file system is shared, the claim is what the member may use)
 * @param volumeFreeBytes what is left of it: the smaller of the file system's free bytes and
 *     the claim less the data directory
 */
public record MemberForecast(int ordinal, String name, boolean leader, MemberSpace space,
    long volumeBytes, long volumeFreeBytes) {

  /** The pages a defragmentation gives back. */
  public long reclaimableBytes() {
    return Math.max(0, space.dbSizeBytes() - space.dbSizeInUseBytes());
  }

  /** Free pages as a percentage of the database file. */
  public int fragmentationPercent() {
    return space.dbSizeBytes() == 0 ? 0
        : (int) (100 * reclaimableBytes() / space.dbSizeBytes());
  }

  /** The database file as a percentage of the quota. */
  public int quotaPercent() {
    return space.quotaBytes() == 0 ? 0 : (int) (100 * space.dbSizeBytes() / space.quotaBytes());
  }

  /** When the database file reaches the quota at its current growth; empty while it does not grow. */
  public Optional<Duration> timeToQuota() {
    return until(space.quotaBytes() - space.dbSizeBytes(), space.dbGrowthBytesPerSecond());
  }

  /** When the data in use reaches the quota (then only a larger quota helps). */
  public Optional<Duration> inUseTimeToQuota() {
    return until(space.quotaBytes() - space.dbSizeInUseBytes(),
        space.inUseGrowthBytesPerSecond());
  }

  /** When the volume is full, at the database's growth (the WAL is recycled). */
  public Optional<Duration> timeToVolumeFull() {
    return volumeBytes <= 0 ? Optional.empty()
        : until(volumeFreeBytes, space.dbGrowthBytesPerSecond());
  }

  /** Zero when already there; empty when not growing (or no rate yet). */
  static Optional<Duration> until(long left, double perSecond) {
    if (left <= 0) {
      return Optional.of(Duration.ZERO);
    }
    if (perSecond <= 0) {
      return Optional.empty();
    }
    double seconds = left / perSecond;
    return Optional.of(seconds > Duration.ofDays(3650).toSeconds() ? Duration.ofDays(3650)
        : Duration.ofMillis((long) (seconds * 1000)));
  }
}
