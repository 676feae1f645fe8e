package cloud.gardener.druid.testenv.emulators;

import cloud.gardener.druid.testenv.process.BuildScript;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A store emulator (fake-gcs-server, Azurite) as a child process on 127.0.0.1, built or
 * installed by its script under {@code testenv/emulators/} (cached by version; the script
 * prints the program last). Its output goes to a log file named in failures.
 */
final class EmulatorProcess implements AutoCloseable {

  /** How long an emulator may take to listen on a loaded machine. */
  private static final Duration STARTUP = Duration.ofMinutes(2);

  private final Process process;
  private final Path log;

  private EmulatorProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Runs {@code testenv/emulators/<script>} and returns the path it prints last. */
  static Path install(String script) {
    Path root = Paths.get(System.getProperty("druid.repoRoot", "..")).toAbsolutePath();
    return BuildScript.run(root.resolve("testenv/emulators").resolve(script), List.of(),
        System.err::println);
  }

  /** A new log file under {@code target/it-logs/}, kept after the test. */
  static Path logFile(String name) throws IOException {
    Path dir = Files.createDirectories(Paths.get("target", "it-logs").toAbsolutePath());
    return Files.createTempFile(dir, name + "-", ".log");
  }

  /** Starts {@code command} and waits until 127.0.0.1:{@code port} accepts connections. */
  static EmulatorProcess start(List<String> command, Path log, int port) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      EmulatorProcess emulator = new EmulatorProcess(process, log);
      try {
        emulator.awaitListening(command.get(0), port);
      } catch (RuntimeException e) {
        emulator.close();
        throw e;
      }
      return emulator;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
  }

  private void awaitListening(String program, int port) {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (!accepts(port)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(program + " exited with " + process.exitValue()
            + "; its log: " + log);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(program + " did not listen on 127.0.0.1:" + port
            + " within " + STARTUP + "; its log: " + log);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting " + program, e);
      }
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
