package cloud.gardener.druid.agent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of a process from /proc/PID/stat: its own (all its threads) and that of its
 * children it has waited for (for the agent during a restore: etcdutl and the temporary etcd).
 * Less disturbed than wall time by other work on a shared machine.
 */
record CpuTimes(long selfMillis, long childrenMillis) {

  /** Linux's USER_HZ, the unit of these fields on every platform the benchmark runs on. */
  private static final long TICK_MILLIS = 10;

  static CpuTimes of(long pid) throws IOException {
    return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
  }

  /**
   * The threads of {@code pid} that used the most CPU, by name ({@code /proc/PID/task}; the
   * JVM names its compiler and GC threads), "name ms" each, most first.
   */
  static List<String> busiestThreads(long pid, int limit) throws IOException {
    Map<String, Long> byName = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks.toList()) {
        try {
          String stat = Files.readString(task.resolve("stat"));
          String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
              .replaceAll("[0-9]+$", "#");
          byName.merge(name, parse(stat).selfMillis(), Long::sum);
        } catch (IOException e) {
          // the thread ended
        }
      }
    }
    return byName.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(limit)
        .map(e -> e.getKey() + " " + e.getValue()).toList();
  }

  private static CpuTimes parse(String stat) {
    // the command name in parentheses may hold spaces: the fields follow its closing one
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields 14-17 of proc(5), counted from the state (field 3) here
    long utime = Long.parseLong(fields[11]);
    long stime = Long.parseLong(fields[12]);
    long cutime = Long.parseLong(fields[13]);
    long cstime = Long.parseLong(fields[14]);
    return new CpuTimes((utime + stime) * TICK_MILLIS, (cutime + cstime) * TICK_MILLIS);
  }

  @Override
  public String toString() {
    return selfMillis + "+" + childrenMillis;
  }
}
