package cloud.gardener.druid.devtools.local;

import cloud.gardener.druid.cli.shared.UserError;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The state directory of {@code druid local}: {@code kubeconfig}, {@code logs/},
 * {@code up.pid} (pid and start time of the {@code up} process), {@code processes} (every
 * process it started, see {@link ProcessLedger}), {@code ready} (written once up) and
 * {@code up.log} (output of a detached {@code up}).
 */
record LocalDirectory(Path path) {

  LocalDirectory {
    path = path.toAbsolutePath().normalize();
  }

  Path kubeconfig() {
    return path.resolve("kubeconfig");
  }

  Path ledgerFile() {
    return path.resolve("processes");
  }

  Path readyFile() {
    return path.resolve("ready");
  }

  Path upLog() {
    return path.resolve("up.log");
  }

  private Path pidFile() {
    return path.resolve("up.pid");
  }

  /** Records this process as the {@code up} process of the directory. */
  void claim() {
    running().ifPresent(e -> {
      throw new UserError("druid local is already running in " + path + " (pid " + e.pid()
          + "); stop it with 'druid local down --dir " + path + "'");
    });
    ProcessHandle self = ProcessHandle.current();
    long start = self.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    write(pidFile(), self.pid() + "\t" + start + "\n");
  }

  void release() {
    try {
      Files.deleteIfExists(readyFile());
      Files.deleteIfExists(pidFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void markReady(String summary) {
    write(readyFile(), summary);
  }

  /** The live {@code up} process of this directory, if any. */
  Optional<ProcessLedger.Entry> running() {
    if (!Files.exists(pidFile())) {
      return Optional.empty();
    }
    try {
      String[] parts = Files.readString(pidFile()).trim().split("\t");
      ProcessLedger.Entry entry = new ProcessLedger.Entry(Long.parseLong(parts[0]),
          Long.parseLong(parts[1]), "druid local up");
      return entry.isSameLiveProcess() ? Optional.of(entry) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
