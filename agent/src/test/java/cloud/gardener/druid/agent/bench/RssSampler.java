package cloud.gardener.druid.agent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Samples one process's resident set (VmRSS of /proc/PID/status: the JVM alone, not its etcd
 * child) every 10 ms on a daemon thread; {@link #peakSince()} is the largest sample since the
 * last {@link #reset()}.
 */
final class RssSampler implements AutoCloseable {

  private final Path status;
  private final Thread thread;
  private volatile long peakKib;
  private volatile boolean running = true;

  private RssSampler(long pid) {
    this.status = Path.of("/proc", Long.toString(pid), "status");
    this.thread = new Thread(this::loop, "rss-sampler-" + pid);
    thread.setDaemon(true);
  }

  static RssSampler start(long pid) {
    RssSampler sampler = new RssSampler(pid);
    sampler.thread.start();
    return sampler;
  }

  /** The resident set now, in MiB (0 once the process is gone). */
  long currentMib() {
    return rssKib() / 1024;
  }

  long peakSinceMib() {
    return Math.max(peakKib, rssKib()) / 1024;
  }

  /**
   * The resident set at rest: one sample a second for {@code seconds}, as "median MiB
   * (min-max)". A single sample may catch a transient (the JIT's native memory, freed again
   * within the 5 s of TrimNativeHeapInterval).
   */
  String restingMib(int seconds) throws InterruptedException {
    long[] samples = new long[seconds];
    for (int i = 0; i < seconds; i++) {
      Thread.sleep(1_000);
      samples[i] = currentMib();
    }
    Arrays.sort(samples);
    return samples[seconds / 2] + " MiB (" + samples[0] + "-" + samples[seconds - 1] + ")";
  }

  void reset() {
    peakKib = rssKib();
  }

  private long rssKib() {
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      // the process has exited
    }
    return 0;
  }

  private void loop() {
    while (running) {
      peakKib = Math.max(peakKib, rssKib());
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
