package cloud.gardener.druid.operator.model;

import java.time.Duration;

/**
 * The operator's snapshot compaction settings (upstream's compaction controller flags; an
 * Etcd's {@code spec.backup.snapshotCompaction} overrides the thresholds).
 *
 * @param enabled whether compaction Jobs run at all ({@code --enable-backup-compaction})
 * @param eventsThreshold delta events since the last full snapshot that start a compaction
 *     ({@code --etcd-events-threshold})
 * @param fullSnapshotThreshold delta events past which the leader's agent takes a full
 *     snapshot instead of a compaction ({@code --trigger-full-snapshot-threshold})
 * @param activeDeadline how long a compaction Job may run ({@code --active-deadline-duration})
 */
public record CompactionSettings(boolean enabled, long eventsThreshold,
    long fullSnapshotThreshold, Duration activeDeadline) {

  public static final long DEFAULT_EVENTS_THRESHOLD = 1_000_000;
  public static final long DEFAULT_FULL_SNAPSHOT_THRESHOLD = 3_000_000;
  public static final Duration DEFAULT_ACTIVE_DEADLINE = Duration.ofHours(3);
  public static final CompactionSettings DISABLED = new CompactionSettings(false,
      DEFAULT_EVENTS_THRESHOLD, DEFAULT_FULL_SNAPSHOT_THRESHOLD, DEFAULT_ACTIVE_DEADLINE);

  public CompactionSettings {
    if (eventsThreshold < 1) {
      throw new IllegalArgumentException("--etcd-events-threshold must be positive, not "
          + eventsThreshold);
    }
    if (fullSnapshotThreshold < 1) {
      throw new IllegalArgumentException("--trigger-full-snapshot-threshold must be positive,"
          + " not " + fullSnapshotThreshold);
    }
    if (activeDeadline.isNegative() || activeDeadline.getSeconds() < 1) {
      throw new IllegalArgumentException("--active-deadline-duration must be at least 1s, not "
          + activeDeadline);
    }
  }

  public static CompactionSettings enabled(long eventsThreshold, Duration activeDeadline) {
    return new CompactionSettings(true, eventsThreshold, DEFAULT_FULL_SNAPSHOT_THRESHOLD,
        activeDeadline);
  }
}
