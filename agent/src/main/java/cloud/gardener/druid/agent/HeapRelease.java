package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.util.HeapCeiling;

/**
 * A full collection after the agent's two big jobs, a restore and a full snapshot, and after a
 * delta snapshot if the old generation had to grow since the last one (the events it held were
 * promoted and are garbage now); between them {@link HeapCeiling} gives back what a burst
 * grew (a leader's first delta after a restore buffered 100,000 events and left 52 MiB of old
 * generation committed, 15 MiB of it alive). With the members' Serial GC
 * (api/member/MemberJvmOptions) the heap shrinks only in a full collection; every member pays a
 * grown heap all the time, one collection of a mostly empty heap costs milliseconds.
 */
final class HeapRelease implements SnapshotListener {

  HeapRelease() {
    HeapCeiling.watch();
  }

  static void now() {
    HeapCeiling.watch();
    HeapCeiling.collect();
  }

  @Override
  public void written(Snapshot snapshot) {
    if (snapshot.kind() == Snapshot.Kind.FULL) {
      HeapCeiling.collect();
    } else {
      HeapCeiling.collectIfExpanded();
    }
  }

  @Override
  public void failed(Snapshot.Kind kind, Exception error) {
    if (kind == Snapshot.Kind.FULL) {
      HeapCeiling.collect();
    }
  }
}
