package cloud.gardener.druid.testenv.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs one of the repository's cached build scripts ({@code images/build.sh},
 * {@code testenv/helm/build.sh}): they print the built artifact as the last line of stdout
 * and their progress on stderr, which goes to {@code progress} line by line.
 */
public final class BuildScript {

  private BuildScript() {
  }

  public static Path run(Path script, List<String> args, Consumer<String> progress) {
    try {
      Path err = Files.createTempFile("druid-build", ".log");
      try {
        Process p = new ProcessBuilder(concat(script, args))
            .directory(script.getParent().toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectError(ProcessBuilder.Redirect.appendTo(err.toFile()))
            .start();
        Thread tail = new Thread(() -> follow(err, p, progress), "build-progress");
        tail.setDaemon(true);
        tail.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int code = p.waitFor();
        tail.join(2000);
        if (code != 0 || out.isEmpty()) {
          throw new IllegalStateException(script + " failed (exit " + code + "):\n"
              + Files.readString(err));
        }
        List<String> lines = out.lines().toList();
        return Path.of(lines.get(lines.size() - 1));
      } finally {
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + script, e);
    }
  }

  private static List<String> concat(Path script, List<String> args) {
    List<String> argv = new java.util.ArrayList<>();
    argv.add("bash");
    argv.add(script.toString());
    argv.addAll(args);
    return argv;
  }

  /** Hands each new line of {@code file} to {@code progress} until {@code p} has exited. */
  private static void follow(Path file, Process p, Consumer<String> progress) {
    long seen = 0;
    try {
      while (true) {
        boolean done = !p.isAlive();
        List<String> lines = Files.readAllLines(file);
        for (long i = seen; i < lines.size(); i++) {
          progress.accept(lines.get((int) i));
        }
        seen = lines.size();
        if (done) {
          return;
        }
        Thread.sleep(200); // polling a log file: no event to wait on
      }
    } catch (IOException | InterruptedException e) {
      // progress is best effort
    }
  }
}
