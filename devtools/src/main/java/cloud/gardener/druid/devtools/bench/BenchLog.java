package cloud.gardener.druid.devtools.bench;

import java.util.function.Consumer;

/** A benchmark run's progress lines, each stamped with the seconds since the run began. */
final class BenchLog {

  private final Consumer<String> out;
  private final long started = System.nanoTime();

  BenchLog(Consumer<String> out) {
    this.out = out;
  }

  void say(String line) {
    out.accept(String.format("[%5.0fs] %s", (System.nanoTime() - started) / 1e9, line));
  }

  /** A line without the stamp (what closing the run says). */
  void plain(String line) {
    out.accept(line);
  }

  /** When the run began, as {@link System#nanoTime()}. */
  long started() {
    return started;
  }

  /** Seconds since {@code nanos} (a {@link System#nanoTime()}), to a tenth. */
  static double secondsSince(long nanos) {
    return Math.round((System.nanoTime() - nanos) / 1e8) / 10.0;
  }
}
