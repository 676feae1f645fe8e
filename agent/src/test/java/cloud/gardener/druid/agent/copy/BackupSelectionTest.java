package cloud.gardener.druid.agent.copy;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackupSelectionTest {

  private static final Instant NOW = Instant.parse("2026-11-25T10:30:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private static Snapshot full(long revision, Instant at) {
    return Snapshot.full(0, revision, at, Compression.GZIP, false);
  }

  private static Snapshot delta(long from, long to, Instant at) {
    return Snapshot.delta(from, to, at, Compression.GZIP);
  }

  private static Instant daysAgo(double days) {
    return NOW.minus(Duration.ofMinutes(Math.round(days * 24 * 60)));
  }

  /**
   * Three daily backups with two deltas each, and two deltas before the first full; the
   * newest full snapshot is final (taken on shutdown). The last delta before each full
   * snapshot ends at its revision, as when nothing was written in between.
   */
  private static final Snapshot ORPHAN1 = delta(1, 10, daysAgo(3.5));
  private static final Snapshot ORPHAN2 = delta(11, 20, daysAgo(3.4));
  private static final Snapshot FULL3 = full(20, daysAgo(3));
  private static final Snapshot D3A = delta(21, 30, daysAgo(2.9));
  private static final Snapshot D3B = delta(31, 40, daysAgo(2.8));
  private static final Snapshot FULL2 = full(40, daysAgo(2));
  private static final Snapshot D2A = delta(41, 50, daysAgo(1.9));
  private static final Snapshot D2B = delta(51, 60, daysAgo(1.8));
  private static final Snapshot FULL1 = Snapshot.full(0, 60, daysAgo(1), Compression.GZIP, true);
  private static final Snapshot D1A = delta(61, 70, daysAgo(0.9));
  private static final Snapshot D1B = delta(71, 80, daysAgo(0.8));

  private static List<Snapshot> listing() {
    List<Snapshot> all = new ArrayList<>(List.of(ORPHAN1, ORPHAN2, FULL3, D3A, D3B, FULL2, D2A,
        D2B, FULL1, D1A, D1B));
    Collections.shuffle(all, new Random(7));
    return all;
  }

  @Test
  void everyBackupIsAFullSnapshotAndItsDeltasOldestFirstWithoutOrphanDeltas() {
    assertThat(BackupSelection.ALL.select(listing(), CLOCK)).containsExactly(
        new Backup(FULL3, List.of(D3A, D3B)),
        new Backup(FULL2, List.of(D2A, D2B)),
        new Backup(FULL1, List.of(D1A, D1B)));
  }

  @Test
  void theAgeLimitKeepsBackupsWhoseFullSnapshotIsYoungerThanThatManyDays() {
    // FULL2 is exactly two days old, FULL3 three
    assertThat(new BackupSelection(2, -1).select(listing(), CLOCK))
        .containsExactly(new Backup(FULL1, List.of(D1A, D1B)));
    assertThat(new BackupSelection(3, -1).select(listing(), CLOCK))
        .extracting(Backup::full).containsExactly(FULL2, FULL1);
    assertThat(new BackupSelection(4, -1).select(listing(), CLOCK))
        .extracting(Backup::full).containsExactly(FULL3, FULL2, FULL1);
    assertThat(new BackupSelection(0, -1).select(listing(), CLOCK)).isEmpty();
  }

  @Test
  void theAgeLimitIsMeasuredFromTheClock() {
    Clock later = Clock.offset(CLOCK, Duration.ofHours(36));
    assertThat(new BackupSelection(3, -1).select(listing(), later))
        .extracting(Backup::full).containsExactly(FULL1);
  }

  @Test
  void theCountLimitKeepsTheNewestBackupsAfterTheAgeLimit() {
    assertThat(new BackupSelection(-1, 2).select(listing(), CLOCK))
        .containsExactly(new Backup(FULL2, List.of(D2A, D2B)),
            new Backup(FULL1, List.of(D1A, D1B)));
    assertThat(new BackupSelection(-1, 1).select(listing(), CLOCK))
        .extracting(Backup::full).containsExactly(FULL1);
    assertThat(new BackupSelection(-1, 0).select(listing(), CLOCK)).isEmpty();
    assertThat(new BackupSelection(-1, 9).select(listing(), CLOCK)).hasSize(3);
    assertThat(new BackupSelection(3, 9).select(listing(), CLOCK))
        .extracting(Backup::full).containsExactly(FULL2, FULL1);
    assertThat(new BackupSelection(9, 1).select(listing(), CLOCK))
        .extracting(Backup::full).containsExactly(FULL1);
  }

  @Test
  void aListingWithoutFullSnapshotsHoldsNoBackups() {
    assertThat(BackupSelection.ALL.select(List.of(ORPHAN1, ORPHAN2), CLOCK)).isEmpty();
    assertThat(BackupSelection.ALL.select(List.of(), CLOCK)).isEmpty();
  }
}
