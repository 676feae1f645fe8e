package cloud.gardener.druid.testenv.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Signals to single processes ({@link ProcessGroups} signals whole groups) and the lookup of a
 * process's children by command name, from {@code /proc}.
 */
public final class Signals {

  /** The signals the fault injector sends. */
  public enum Signal { KILL, STOP, CONT }

  private static final Path PROC = Path.of("/proc");

  private Signals() {
  }

  /** Sends {@code signal} to process {@code pid}; false when it is gone. */
  public static boolean send(long pid, Signal signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-s", signal.name(), Long.toString(pid))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The first live child of {@code parent} whose command name ({@code comm}) is {@code name}. */
  public static Optional<Long> childNamed(long parent, String name) {
    try (Stream<Path> entries = Files.list(PROC)) {
      return entries.map(p -> p.getFileName().toString())
          .filter(n -> n.chars().allMatch(Character::isDigit))
          .map(Long::parseLong)
          .filter(pid -> stat(pid).filter(s -> s.ppid() == parent && s.comm().equals(name))
              .isPresent())
          .sorted()
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The process state letter ({@code T} when stopped); empty when it is gone. */
  public static Optional<String> state(long pid) {
    return stat(pid).map(Stat::state);
  }

  /**
   * Whether the process still runs: it exists and is not a zombie (a process killed after its
   * parent stays one until its new parent reaps it, and not every container init does).
   */
  public static boolean running(long pid) {
    return state(pid).filter(s -> !s.equals("Z")).isPresent();
  }

  /** The fields of {@code /proc/<pid>/stat} used here. */
  record Stat(String comm, String state, long ppid) {

    /** {@code comm} is in parentheses and may hold spaces and parentheses itself. */
    static Optional<Stat> parse(String line) {
      int open = line.indexOf('(');
      int close = line.lastIndexOf(')');
      if (open < 0 || close < open) {
        return Optional.empty();
      }
      List<String> rest = List.of(line.substring(close + 2).trim().split(" "));
      if (rest.size() < 2) {
        return Optional.empty();
      }
      return Optional.of(new Stat(line.substring(open + 1, close), rest.get(0),
          Long.parseLong(rest.get(1))));
    }
  }

  private static Optional<Stat> stat(long pid) {
    try {
      return Stat.parse(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat")));
    } catch (IOException | RuntimeException gone) {
      return Optional.empty();
    }
  }
}
