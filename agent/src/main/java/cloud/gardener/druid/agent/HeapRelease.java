package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.store.Snapshot;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * A full collection after the agent's two big jobs, a restore and a full snapshot, and after a
 * delta snapshot when the old generation has grown well past what the last such collection
 * left. With the members' Serial GC (api/member/MemberJvmOptions) the heap shrinks only in a
 * full collection, so without one the heap a burst grew stays committed for as long as the
 * member runs (a leader's first delta after a restore buffered 100,000 events and left 52 MiB
 * of old generation committed, 15 MiB of it alive); every member pays that all the time, one
 * collection of a mostly empty heap costs milliseconds.
 */
final class HeapRelease implements SnapshotListener {

  private static final long SLACK_BYTES = 8L << 20;
  /** The old generation's committed size after the last release; 0 before the first. */
  private static volatile long afterLastRelease;

  static void now() {
    System.gc();
    afterLastRelease = oldGenerationCommitted();
  }

  /**
   * Whether an old generation of {@code committed} bytes has grown enough since a release left
   * it at {@code afterRelease} to be worth another: by more than half plus 8 MiB. A release
   * sets the new mark, so a steady heap is not collected again.
   */
  static boolean grown(long committed, long afterRelease) {
    return committed > afterRelease + afterRelease / 2 + SLACK_BYTES;
  }

  private static long oldGenerationCommitted() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP
          && (pool.getName().contains("Tenured") || pool.getName().contains("Old"))) {
        return pool.getUsage().getCommitted();
      }
    }
    return 0;
  }

  @Override
  public void written(Snapshot snapshot) {
    if (snapshot.kind() == Snapshot.Kind.FULL
        || grown(oldGenerationCommitted(), afterLastRelease)) {
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
