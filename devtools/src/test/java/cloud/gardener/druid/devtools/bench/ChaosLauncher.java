package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code druid bench chaos} as a person runs it: the developer jar as its own process. */
final class ChaosLauncher {

  /** What the run printed and how it ended. */
  record Outcome(String output, int exitCode) {

    List<String> rounds() {
      return output.lines().filter(l -> l.startsWith("round ")).toList();
    }

    List<String> checks() {
      return output.lines().filter(l -> l.startsWith("ok ") || l.startsWith("FAILED "))
          .toList();
    }
  }

  private ChaosLauncher() {
  }

  /** Runs it with {@code args} after {@code bench chaos}; fails when it does not end in time. */
  static Outcome run(Path dir, long timeoutMinutes, String... args) throws Exception {
    Path root = repoRoot();
    Path jar = root.resolve("devtools/target/druid-dev.jar");
    assertThat(jar).as("the package phase builds it").isRegularFile();
    Path out = dir.resolve("out.txt");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Ddruid.repoRoot=" + root, "-jar", jar.toString(), "bench", "chaos",
        "--dir", dir.resolve("run").toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(out.toFile()).redirectInput(new File("/dev/null")).start();
    boolean ended = p.waitFor(timeoutMinutes, TimeUnit.MINUTES);
    if (!ended) {
      p.destroy(); // SIGTERM: its shutdown hook stops what it started
      p.waitFor(1, TimeUnit.MINUTES);
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    System.out.println(output); // its rounds and heal times, kept in the Failsafe report
    assertThat(ended).as(output).isTrue();
    return new Outcome(output, p.exitValue());
  }

  private static Path repoRoot() {
    Path dir = Path.of("").toAbsolutePath();
    return Files.isRegularFile(dir.resolve("druid")) ? dir : dir.getParent();
  }
}
