package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotChain;
import java.util.List;
import java.util.Optional;

/**
 * What a restore applies: the newest full snapshot and every delta after it, in revision
 * order. Refuses a plan whose deltas leave a revision uncovered.
 */
public record RestorePlan(Snapshot full, List<Snapshot> deltas) {

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

  public long lastRevision() {
    return deltas.isEmpty() ? full.endRevision() : deltas.get(deltas.size() - 1).endRevision();
  }
}
