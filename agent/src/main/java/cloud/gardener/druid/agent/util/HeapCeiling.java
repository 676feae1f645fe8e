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
