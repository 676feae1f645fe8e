package cloud.gardener.druid.testenv.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A process started in its own session (via {@code setsid}), so that it and every process it
 * forks form one process group that can be signalled and killed as a whole, even after the
 * leader has exited and its children were re-parented.
 */
public final class ManagedProcess implements AutoCloseable {

  private final String name;
  private final Process process;
  private final ProcessLedger ledger;

  private ManagedProcess(String name, Process process, ProcessLedger ledger) {
    this.name = name;
    this.process = process;
    this.ledger = ledger;
  }

  /**
   * Starts {@code command} with exactly {@code env} as its environment, stdout and stderr
   * appended to {@code log}, and records it in {@code ledger}.
   */
  public static ManagedProcess start(String name, List<String> command, Map<String, String> env,
      Path workingDir, Path log, ProcessLedger ledger) {
    try {
      Files.createDirectories(log.getParent());
      Files.createDirectories(workingDir);
      ProcessBuilder builder = new ProcessBuilder(withSetsid(command))
          .directory(workingDir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().clear();
      builder.environment().putAll(env);
      ManagedProcess started = new ManagedProcess(name, builder.start(), ledger);
      ledger.record(started);
      return started;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  private static List<String> withSetsid(List<String> command) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of("setsid"), command.stream())
        .toList();
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public ProcessHandle handle() {
    return process.toHandle();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code once the leader has exited. */
  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  /** Sends SIGTERM to the leader only, as a container runtime signals PID 1. */
  public void terminate() {
    process.destroy();
  }

  /** SIGKILL to the whole process group. */
  public void kill() {
    ProcessGroups.kill(pid());
    process.destroyForcibly();
  }

  public boolean waitFor(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** SIGTERM, up to {@code grace} to exit, then SIGKILL of the group; returns the exit code. */
  public int stop(Duration grace) {
    if (process.isAlive()) {
      terminate();
      if (!waitFor(grace)) {
        kill();
      }
    }
    ProcessGroups.kill(pid()); // children left behind by a leader that exited
    waitFor(Duration.ofSeconds(10));
    ledger.forget(this);
    return process.isAlive() ? -1 : process.exitValue();
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(5));
  }

  @Override
  public String toString() {
    return name + "(pid " + pid() + ")";
  }
}
