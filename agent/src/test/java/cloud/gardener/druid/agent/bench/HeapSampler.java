package cloud.gardener.druid.agent.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most heap in use (live objects and garbage not yet collected) seen while it runs,
 * sampled every 10 ms. Unlike a sum of the heap pools' peaks, which adds peaks of different
 * moments, it never exceeds the heap limit.
 */
final class HeapSampler implements AutoCloseable {

  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final AtomicLong maxUsed = new AtomicLong();
  private final Thread thread = new Thread(this::run, "heap sampler");

  private HeapSampler() {
  }

  static HeapSampler start() {
    HeapSampler sampler = new HeapSampler();
    sampler.thread.setDaemon(true);
    sampler.thread.start();
    return sampler;
  }

  long maxUsedBytes() {
    return Math.max(maxUsed.get(), memory.getHeapMemoryUsage().getUsed());
  }

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      maxUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    thread.interrupt();
    thread.join();
  }
}
