package cloud.gardener.druid.agent.copy;

import cloud.gardener.druid.agent.store.Snapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * One backup as upstream's copier sees it: a full snapshot and the delta snapshots after it
 * up to the next full snapshot, in revision order.
 */
public record Backup(Snapshot full, List<Snapshot> deltas) {

  public Backup {
    if (!full.isFull() || deltas.stream().anyMatch(Snapshot::isFull)) {
      throw new IllegalArgumentException("a backup is one full snapshot and its deltas: "
          + full + " " + deltas);
    }
    deltas = List.copyOf(deltas);
  }

  /** The full snapshot, then the deltas: the order their copies become visible in. */
  public List<Snapshot> snapshots() {
    List<Snapshot> all = new ArrayList<>(deltas.size() + 1);
    all.add(full);
    all.addAll(deltas);
    return all;
  }
}
