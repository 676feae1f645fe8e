package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.store.Snapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a restore applies: the newest full snapshot and every delta after it, in revision
 * order, their events up to {@code untilRevision} (a point-in-time restore stops within a
 * delta; {@link Long#MAX_VALUE}: every event). Refuses a plan whose deltas leave a revision
 * uncovered.
 */
public record RestorePlan(Snapshot full, List<Snapshot> deltas, long untilRevision) {

  /** Every event of {@code deltas}. */
  public RestorePlan(Snapshot full, List<Snapshot> deltas) {
    this(full, deltas, Long.MAX_VALUE);
  }

  /** Empty when the store holds no full snapshot (a new cluster). */
  public static Optional<RestorePlan> of(List<Snapshot> snapshots) throws RestoreException {
    Optional<Snapshot> newestFull = snapshots.stream().filter(Snapshot::isFull)
        .max(Comparator.comparingLong(Snapshot::endRevision)
            .thenComparing(Snapshot::createdOn));
    if (newestFull.isEmpty()) {
      return Optional.empty();
    }
    Snapshot full = newestFull.get();
    List<Snapshot> candidates = snapshots.stream()
        .filter(s -> !s.isFull() && s.endRevision() > full.endRevision())
        .sorted(Comparator.comparingLong(Snapshot::startRevision)
            .thenComparingLong(Snapshot::endRevision))
        .toList();
    List<Snapshot> deltas = new ArrayList<>();
    long covered = full.endRevision();
    Snapshot previous = full;
    for (Snapshot delta : candidates) {
      if (delta.endRevision() <= covered) {
        continue;
      }
      if (delta.startRevision() > covered + 1) {
        throw new RestoreException("missing delta snapshot: no snapshot holds revisions "
            + (covered + 1) + ".." + (delta.startRevision() - 1) + " (between " + previous
            + " and " + delta + "); restoring would lose data;"
            + " the data directory was left unchanged");
      }
      deltas.add(delta);
      covered = delta.endRevision();
      previous = delta;
    }
    return Optional.of(new RestorePlan(full, List.copyOf(deltas)));
  }

  /** The last revision restored (the plan's end, or {@code untilRevision} within it). */
  public long lastRevision() {
    long end = deltas.isEmpty() ? full.endRevision()
        : deltas.get(deltas.size() - 1).endRevision();
    return Math.min(end, Math.max(untilRevision, full.endRevision()));
  }

  /** True when the restore stops before the end of its last delta. */
  public boolean stopsWithin() {
    return !deltas.isEmpty() && untilRevision < deltas.get(deltas.size() - 1).endRevision();
  }
}
