package cloud.gardener.druid.devtools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One reading of a process from {@code /proc/<pid>}: CPU time used so far (user + system, in
 * clock ticks, from {@code stat}) and resident memory ({@code VmRSS} of {@code status}).
 *
 * @param nanos when it was read ({@link System#nanoTime()})
 */
record ProcSample(long nanos, long cpuTicks, long rssKib) {

  /** {@code getconf CLK_TCK} on Linux on every architecture the JDK runs on. */
  static final int CLOCK_TICKS_PER_SECOND = 100;

  static ProcSample read(long pid) {
    try {
      Path proc = Path.of("/proc", Long.toString(pid));
      long now = System.nanoTime();
      return new ProcSample(now, cpuTicks(Files.readString(proc.resolve("stat"))),
          rssKib(Files.readString(proc.resolve("status"))));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc/" + pid + " (process gone?)", e);
    }
  }

  /**
   * utime + stime of a {@code /proc/<pid>/stat} line: fields 14 and 15, counted after the
   * command name in parentheses, which may itself hold blanks and parentheses.
   */
  static long cpuTicks(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
    }
    String[] fields = stat.substring(close + 1).trim().split("\\s+");
    // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** The {@code VmRSS:  123456 kB} line of {@code /proc/<pid>/status}. */
  static long rssKib(String status) {
    for (String line : status.split("\n")) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").trim());
      }
    }
    throw new IllegalArgumentException("no VmRSS line in /proc/<pid>/status");
  }

  /** CPU used between two readings as a percentage of one core. */
  static double cpuPercentOfCore(ProcSample from, ProcSample to) {
    double seconds = (to.nanos - from.nanos) / 1e9;
    if (seconds <= 0) {
      throw new IllegalArgumentException("the second reading is not later than the first");
    }
    double cpuSeconds = (to.cpuTicks - from.cpuTicks) / (double) CLOCK_TICKS_PER_SECOND;
    return 100.0 * cpuSeconds / seconds;
  }
}
