package cloud.gardener.druid.agent.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A store emulator (fake-gcs-server, Azurite) as a child process on 127.0.0.1, built or
 * installed by its script under {@code testenv/emulators/} (cached by version; the script
 * prints the program last). Its output goes to a log file named in failures.
 */
final class EmulatorProcess implements AutoCloseable {

  private final Process process;
  private final Path log;

  private EmulatorProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Runs {@code testenv/emulators/<script>} and returns the path it prints last. */
  static Path install(String script) {
    Path root = Paths.get(System.getProperty("druid.repoRoot", "..")).toAbsolutePath();
    Path path = root.resolve("testenv/emulators").resolve(script);
    try {
      Process p = new ProcessBuilder("bash", path.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(40, TimeUnit.MINUTES) || p.exitValue() != 0) {
        throw new IllegalStateException(path + " failed");
      }
      List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
      return Paths.get(lines.get(lines.size() - 1).trim());
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A new log file under {@code target/it-logs/}, kept after the test. */
  static Path logFile(String name) throws IOException {
    Path dir = Files.createDirectories(Paths.get("target", "it-logs").toAbsolutePath());
    return Files.createTempFile(dir, name + "-", ".log");
  }

  /** Starts {@code command} and waits until 127.0.0.1:{@code port} accepts connections. */
  static EmulatorProcess start(List<String> command, Path log, int port) throws IOException {
    Files.createDirectories(log.getParent());
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    EmulatorProcess emulator = new EmulatorProcess(process, log);
    try {
      Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
          .until(() -> {
            if (!process.isAlive()) {
              throw new IllegalStateException(command.get(0) + " exited with "
                  + process.exitValue() + "; its log: " + log);
            }
            return accepts(port);
          });
    } catch (RuntimeException e) {
      emulator.close();
      throw e;
    }
    return emulator;
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  Path log() {
    return log;
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
