package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotChain;
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
    Optional<SnapshotChain> chain = SnapshotChain.of(snapshots);
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    if (chain.get().gap().isPresent()) {
      throw new RestoreException("missing delta snapshot: " + chain.get().gap().get()
          .describe() + "; restoring would lose data;"
          + " the data directory was left unchanged");
    }
    return Optional.of(new RestorePlan(chain.get().full(), chain.get().deltas()));
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
