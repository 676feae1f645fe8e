package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.store.Snapshot;

/**
 * A full collection after the agent's two big jobs, a restore and a full snapshot. With the
 * members' Serial GC (operator/model/MemberJvm) the heap shrinks only in a full collection,
 * so without one the heap such a job grew stays committed for as long as the member runs;
 * every member pays that all the time, one collection of a mostly empty heap costs
 * milliseconds.
 */
final class HeapRelease implements SnapshotListener {

  static void now() {
    System.gc();
  }

  @Override
  public void written(Snapshot snapshot) {
    if (snapshot.kind() == Snapshot.Kind.FULL) {
      now();
    }
  }

  @Override
  public void failed(Snapshot.Kind kind, Exception error) {
    if (kind == Snapshot.Kind.FULL) {
      now();
    }
  }
}
