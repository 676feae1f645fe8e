package cloud.gardener.druid.agent.util;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.NotificationEmitter;

/**
 * Keeps the old generation of the members' Serial GC (api/member/MemberJvmOptions) near what is
 * alive in it: after any collection that left it grown by more than half plus 8 MiB since the
 * last full collection, a full collection, in which the heap also shrinks. Without it a burst
 * (a restore's prepared transactions, a leader's delta events) stays committed: JDK 17's Serial
 * GC ran a full collection whenever the old generation could not promise room for the young
 * one, JDK 25's expands the old generation instead, and a restore of 128 MiB + 50,000 events
 * left 105 MiB of heap committed, 17 MiB of it alive (peak RSS 217 MiB against 152 on JDK 17).
 * One collection of a mostly dead heap costs tens of milliseconds.
 */
public final class HeapCeiling {

  private static final long SLACK_BYTES = 8L << 20;
  private static final AtomicBoolean WATCHING = new AtomicBoolean();
  /** The old generation's committed size after the last full collection; 0 before the first. */
  private static volatile long afterLastCollection;

  private HeapCeiling() {
  }

  /** Checks after every collection from now on; once per JVM. */
  public static void watch() {
    if (!WATCHING.compareAndSet(false, true)) {
      return;
    }
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener((notification, handback) -> collectIfGrown(),
            notification -> notification.getType()
                .equals("com.sun.management.gc.notification"), null);
      }
    }
  }

  /** A full collection now (after a restore or a full snapshot): sets the new mark. */
  public static synchronized void collect() {
    System.gc();
    afterLastCollection = oldGenerationCommitted();
  }

  /** A full collection if the old generation grew past the ceiling since the last one. */
  public static void collectIfGrown() {
    if (grown(oldGenerationCommitted(), afterLastCollection)) {
      collect();
    }
  }

  /**
   * A full collection if the old generation had to grow since the last one: called when the
   * agent has just dropped what it held (a delta snapshot written), so what was promoted since
   * is garbage by now. Without it a member kept what a burst of events promoted: 100,000 events
   * left the old generation at 23 MiB, 12 MiB of it alive (RSS at rest 133 MiB, 123 after a
   * full collection).
   */
  public static void collectIfExpanded() {
    if (expanded(oldGenerationCommitted(), afterLastCollection)) {
      collect();
    }
  }

  /**
   * Whether an old generation of {@code committed} bytes is larger than the {@code
   * afterCollection} bytes a full collection left it at (it grows only when promotions have
   * used up the free share MaxHeapFreeRatio left). Before the first full collection it is.
   */
  static boolean expanded(long committed, long afterCollection) {
    return committed > afterCollection;
  }

  /**
   * Whether an old generation of {@code committed} bytes has grown enough since a full
   * collection left it at {@code afterCollection} to be worth another: by more than half plus
   * 8 MiB. A collection sets the new mark, so a steady heap is not collected again.
   */
  static boolean grown(long committed, long afterCollection) {
    return committed > afterCollection + afterCollection / 2 + SLACK_BYTES;
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
}
