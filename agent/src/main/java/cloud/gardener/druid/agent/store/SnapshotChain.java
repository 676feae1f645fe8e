package cloud.gardener.druid.agent.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The chain a restore replays: the store's newest full snapshot and the deltas after it, each
 * starting at most one revision after the revisions before it are covered. A delta that
 * starts later leaves a gap: nothing restores the revisions in between, so the chain ends
 * before it. The one home of this rule: the restore drill names the gap, the snapshotter
 * answers it with a new full snapshot.
 */
public record SnapshotChain(Snapshot full, List<Snapshot> deltas, Optional<Gap> gap) {

  /**
   * Revisions {@code from..to} are in no snapshot: {@code previous} (the full snapshot or a
   * delta) ends before them, the delta {@code next} starts after them.
   */
  public record Gap(long from, long to, Snapshot previous, Snapshot next) {

    public String describe() {
      return "no snapshot holds revisions " + from + ".." + to + ", between "
          + previous.fileName() + " and delta " + next.fileName();
    }
  }

  /** The newest full snapshot's chain; empty when the store holds no full snapshot. */
  public static Optional<SnapshotChain> of(List<Snapshot> listed) {
    Optional<Snapshot> newestFull = listed.stream().filter(Snapshot::isFull)
        .max(Comparator.comparingLong(Snapshot::endRevision)
            .thenComparing(Snapshot::createdOn));
    if (newestFull.isEmpty()) {
      return Optional.empty();
    }
    Snapshot full = newestFull.get();
    List<Snapshot> deltas = new ArrayList<>();
    long covered = full.endRevision();
    Snapshot previous = full;
    for (Snapshot delta : listed.stream()
        .filter(s -> !s.isFull() && s.endRevision() > full.endRevision())
        .sorted(Comparator.comparingLong(Snapshot::startRevision)
            .thenComparingLong(Snapshot::endRevision)).toList()) {
      if (delta.endRevision() <= covered) {
        continue;
      }
      if (delta.startRevision() > covered + 1) {
        return Optional.of(new SnapshotChain(full, List.copyOf(deltas),
            Optional.of(new Gap(covered + 1, delta.startRevision() - 1, previous, delta))));
      }
      deltas.add(delta);
      covered = delta.endRevision();
      previous = delta;
    }
    return Optional.of(new SnapshotChain(full, List.copyOf(deltas), Optional.empty()));
  }
}
