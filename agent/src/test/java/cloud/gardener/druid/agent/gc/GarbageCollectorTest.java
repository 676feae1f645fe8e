package cloud.gardener.druid.agent.gc;

import static cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy.Exponential;
import static cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy.LimitBased;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GarbageCollectorTest {

  /** Wednesday 2026-11-25 10:30 UTC. */
  private static final Instant NOW = Instant.parse("2026-11-25T10:30:00Z");

  private long revision;

  private Snapshot fullAt(Instant at) {
    revision += 10;
    return Snapshot.full(0, revision, at, Compression.GZIP, false);
  }

  private Snapshot deltaAt(Instant at) {
    revision += 10;
    return Snapshot.delta(revision - 9, revision, at, Compression.GZIP);
  }

  /** A full snapshot every {@code every}, oldest first, over {@code span} before NOW. */
  private List<Snapshot> hourlyFulls(Duration span, Duration every) {
    List<Snapshot> all = new ArrayList<>();
    for (Instant t = NOW.minus(span); !t.isAfter(NOW); t = t.plus(every)) {
      all.add(fullAt(t));
    }
    return all;
  }

  private static List<Snapshot> kept(List<Snapshot> all, List<Snapshot> deleted) {
    List<Snapshot> kept = new ArrayList<>(all);
    kept.removeAll(deleted);
    return kept;
  }

  @Test
  void limitBasedKeepsTheNewestMaxBackupsFullsAndTheDeltasOfTheNewest() {
    List<Snapshot> all = new ArrayList<>(hourlyFulls(Duration.ofHours(9), Duration.ofHours(1)));
    Snapshot oldDelta = Snapshot.delta(1, 2, NOW.minus(Duration.ofHours(9)), Compression.GZIP);
    all.add(oldDelta);
    Snapshot newDelta1 = deltaAt(NOW.plusSeconds(20));
    Snapshot newDelta2 = deltaAt(NOW.plusSeconds(40));
    all.add(newDelta1);
    all.add(newDelta2);

    List<Snapshot> deleted = GarbageCollector.toDelete(all, LimitBased, 7, Duration.ZERO,
        NOW.plusSeconds(60));

    assertThat(kept(all, deleted)).filteredOn(Snapshot::isFull)
        .extracting(Snapshot::createdOn)
        .containsExactlyInAnyOrder(NOW, NOW.minus(Duration.ofHours(1)),
            NOW.minus(Duration.ofHours(2)), NOW.minus(Duration.ofHours(3)),
            NOW.minus(Duration.ofHours(4)), NOW.minus(Duration.ofHours(5)),
            NOW.minus(Duration.ofHours(6)));
    assertThat(kept(all, deleted)).filteredOn(s -> !s.isFull())
        .containsExactly(newDelta1, newDelta2);
  }

  @Test
  void limitBasedNeverDropsTheOnlyFullSnapshot() {
    Snapshot only = fullAt(NOW.minus(Duration.ofDays(100)));
    assertThat(GarbageCollector.toDelete(List.of(only), LimitBased, 0, Duration.ZERO, NOW))
        .isEmpty();
  }

  @Test
  void exponentialKeepsCurrentHourHourlyDailyAndWeekly() {
    // a full snapshot every 20 minutes for 6 weeks
    List<Snapshot> all = hourlyFulls(Duration.ofDays(42), Duration.ofMinutes(20));

    List<Snapshot> kept = kept(all,
        GarbageCollector.toDelete(all, Exponential, 7, Duration.ZERO, NOW));

    List<Instant> expected = new ArrayList<>();
    expected.add(NOW);
    expected.add(NOW.minus(Duration.ofMinutes(20))); // 10:10, current hour
    // newest per hour for the 24 hours before 10:00: hh:50 of 09:00 back to 10:00 yesterday
    for (int h = 1; h <= 24; h++) {
      expected.add(Instant.parse("2026-11-25T10:50:00Z").minus(Duration.ofHours(h)));
    }
    // newest per day for 7 days before today: 23:50 of 11-24 … 11-18 (11-24 10:50..23:50
    // already counted hourly, so only the day bucket of 11-24 before 10:00 remains)
    expected.add(Instant.parse("2026-11-24T09:50:00Z"));
    for (int d = 2; d <= 7; d++) {
      expected.add(Instant.parse("2026-11-25T23:50:00Z").minus(Duration.ofDays(d)));
    }
    // newest per week (Monday-based) for the 4 weeks before this week's Monday 11-23
    expected.add(Instant.parse("2026-11-17T23:50:00Z")); // rest of the week of 11-16
    expected.add(Instant.parse("2026-11-15T23:50:00Z")); // week of 11-09
    expected.add(Instant.parse("2026-11-08T23:50:00Z")); // week of 11-02
    expected.add(Instant.parse("2026-11-01T23:50:00Z")); // week of 10-26

    assertThat(kept).extracting(Snapshot::createdOn).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void exponentialDeletesDeltasBeforeTheNewestFullOnly() {
    Snapshot full1 = fullAt(NOW.minus(Duration.ofMinutes(50)));
    Snapshot delta1 = deltaAt(NOW.minus(Duration.ofMinutes(40)));
    Snapshot full2 = fullAt(NOW.minus(Duration.ofMinutes(5)));
    Snapshot delta2 = deltaAt(NOW);
    List<Snapshot> all = List.of(full1, delta1, full2, delta2);

    assertThat(GarbageCollector.toDelete(all, Exponential, 7, Duration.ZERO, NOW))
        .containsExactly(delta1);
  }

  @Test
  void deltasBeforeTheNewestFullAreKeptForTheRetentionPeriodThenDeleted() {
    Snapshot full1 = fullAt(NOW.minus(Duration.ofHours(3)));
    Snapshot old1 = deltaAt(NOW.minus(Duration.ofMinutes(170)));
    Snapshot old2 = deltaAt(NOW.minus(Duration.ofMinutes(61)));
    Snapshot recent1 = deltaAt(NOW.minus(Duration.ofMinutes(59)));
    Snapshot recent2 = deltaAt(NOW.minus(Duration.ofMinutes(40)));
    Snapshot full2 = fullAt(NOW.minus(Duration.ofMinutes(30)));
    Snapshot latest = deltaAt(NOW.minus(Duration.ofMinutes(10)));
    List<Snapshot> all = List.of(full1, old1, old2, recent1, recent2, full2, latest);

    for (var policy : List.of(LimitBased, Exponential)) {
      assertThat(GarbageCollector.toDelete(all, policy, 7, Duration.ofHours(1), NOW))
          .as("%s with a retention of 1h", policy).containsExactly(old1, old2);
      assertThat(GarbageCollector.toDelete(all, policy, 7, Duration.ofHours(1),
          NOW.plus(Duration.ofMinutes(30))))
          .as("%s half an hour later", policy).containsExactly(old1, old2, recent1, recent2);
      assertThat(GarbageCollector.toDelete(all, policy, 7, Duration.ZERO, NOW))
          .as("%s without retention", policy).containsExactly(old1, old2, recent1, recent2);
    }
  }

  @Test
  void deltasAfterTheNewestFullAreKeptHoweverOld() {
    Snapshot full = fullAt(NOW.minus(Duration.ofDays(30)));
    Snapshot needed1 = deltaAt(NOW.minus(Duration.ofDays(29)));
    Snapshot needed2 = deltaAt(NOW.minus(Duration.ofDays(2)));
    assertThat(GarbageCollector.toDelete(List.of(full, needed1, needed2), LimitBased, 7,
        Duration.ofHours(1), NOW)).isEmpty();
  }
}
