package cloud.gardener.druid.agent.copy;

import cloud.gardener.druid.agent.store.Snapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which backups a copy takes, as upstream's {@code --max-backup-age} (days) and
 * {@code --max-backups-to-copy} choose them: a pure function of the source listing and the
 * time. The age limit keeps the backups whose full snapshot is younger than now minus
 * {@code maxBackupAgeDays}; the count limit then keeps the {@code maxBackups} newest. A
 * negative limit is no limit. Deltas that precede every full snapshot belong to no backup.
 */
public record BackupSelection(int maxBackupAgeDays, int maxBackups) {

  public static final int NO_LIMIT = -1;
  public static final BackupSelection ALL = new BackupSelection(NO_LIMIT, NO_LIMIT);

  /** Newest first by the full snapshot's creation time, as upstream sorts backups. */
  private static final Comparator<Backup> NEWEST_FIRST = Comparator
      .comparing((Backup b) -> b.full().createdOn())
      .thenComparingLong(b -> b.full().endRevision())
      .reversed();

  /** The selected backups, oldest first: the order they are copied in. */
  public List<Backup> select(List<Snapshot> snapshots, Clock clock) {
    Instant now = clock.instant();
    Stream<Backup> newestFirst = group(snapshots).stream().sorted(NEWEST_FIRST);
    if (maxBackupAgeDays >= 0) {
      Instant oldest = now.minus(Duration.ofDays(maxBackupAgeDays));
      newestFirst = newestFirst.filter(b -> b.full().createdOn().isAfter(oldest));
    }
    if (maxBackups >= 0) {
      newestFirst = newestFirst.limit(maxBackups);
    }
    List<Backup> selected = new ArrayList<>(newestFirst.toList());
    Collections.reverse(selected);
    return selected;
  }

  /**
   * Unlike {@link Snapshot#ORDER}, a delta ending at a full snapshot's revision comes before
   * it: it holds nothing the full snapshot lacks, so it belongs to the backup before.
   */
  private static final Comparator<Snapshot> CHAIN = Comparator
      .comparingLong(Snapshot::endRevision)
      .thenComparing(Snapshot::isFull)
      .thenComparingLong(Snapshot::startRevision)
      .thenComparing(Snapshot::createdOn);

  /** Splits a listing at every full snapshot. */
  static List<Backup> group(List<Snapshot> snapshots) {
    List<Backup> backups = new ArrayList<>();
    Snapshot full = null;
    List<Snapshot> deltas = new ArrayList<>();
    for (Snapshot s : snapshots.stream().sorted(CHAIN).toList()) {
      if (s.isFull()) {
        if (full != null) {
          backups.add(new Backup(full, deltas));
        }
        full = s;
        deltas = new ArrayList<>();
      } else if (full != null) {
        deltas.add(s);
      }
    }
    if (full != null) {
      backups.add(new Backup(full, deltas));
    }
    return backups;
  }
}
