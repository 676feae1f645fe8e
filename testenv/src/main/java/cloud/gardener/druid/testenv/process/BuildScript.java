package cloud.gardener.druid.testenv.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one of the repository's cached build scripts ({@code testenv/controlplane/build.sh},
 * {@code testenv/helm/build.sh}, {@code images/build.sh}): they print the built artifact as the
 * last line of stdout and their progress on stderr, which goes to {@code progress} line by line
 * as it comes, plus a line a minute while the script runs, so that a cold build is never silent.
 */
public final class BuildScript {

  private BuildScript() {
  }

  /** The script's last stdout line as a path; fails with the script's last error line. */
  public static Path run(Path script, List<String> args, Consumer<String> progress) {
    List<String> argv = new ArrayList<>(List.of("bash", script.toString()));
    argv.addAll(args);
    long started = System.nanoTime();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "build-progress");
      t.setDaemon(true);
      return t;
    });
    try {
      Process p = new ProcessBuilder(argv)
          .directory(script.getParent().toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .start();
      List<String> errors = new ArrayList<>();
      Thread reader = new Thread(() -> forward(p, errors, progress), "build-stderr");
      reader.setDaemon(true);
      reader.start();
      ticker.scheduleAtFixedRate(() -> progress.accept("druid: still running " + script.getFileName()
          + " of " + script.getParent().getFileName() + " ("
          + TimeUnit.NANOSECONDS.toMinutes(System.nanoTime() - started) + " min so far)"),
          1, 1, TimeUnit.MINUTES);
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      int code = p.waitFor();
      reader.join();
      if (code != 0 || out.isEmpty()) {
        throw new IllegalStateException(script + " failed (exit " + code + "): "
            + lastErrorLine(errors));
      }
      List<String> lines = out.lines().toList();
      return Path.of(lines.get(lines.size() - 1).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + script, e);
    } finally {
      ticker.shutdownNow();
    }
  }

  private static void forward(Process p, List<String> errors, Consumer<String> progress) {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        synchronized (errors) {
          errors.add(line);
        }
        progress.accept(line);
      }
    } catch (IOException e) {
      // the script ended
    }
  }

  /** The last line starting with "druid:", else the last non-blank line. */
  public static String lastErrorLine(List<String> stderr) {
    List<String> lines;
    synchronized (stderr) {
      lines = stderr.stream().filter(l -> !l.isBlank()).toList();
    }
    if (lines.isEmpty()) {
      return "no error output";
    }
    return lines.stream().filter(l -> l.startsWith("druid:")).reduce((a, b) -> b)
        .orElse(lines.get(lines.size() - 1));
  }
}
