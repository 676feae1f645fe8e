package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code druid bench corruption-check} as a person runs it: the developer jar as its own
 * process, a small seeded database; one row of figures, each taken from real etcd (its log
 * for the checks, a HashKV call for the baseline), and etcd's logs kept in the directory.
 */
class CorruptionCheckBenchIT {

  @Test
  void aSmallSeededRunPrintsTheChecksBesideTheBaseline(@TempDir Path dir) throws Exception {
    Path root = repoRoot();
    Path jar = root.resolve("devtools/target/druid-dev.jar");
    assertThat(jar).as("the package phase builds it").isRegularFile();
    Path out = dir.resolve("out.txt");
    Path run = dir.resolve("run");
    Process p = new ProcessBuilder(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Ddruid.repoRoot=" + root, "-jar", jar.toString(), "bench", "corruption-check",
        "--sizes=8", "--value-bytes=4096", "--seed=7", "--check-period=2s",
        "--dir=" + run)).redirectErrorStream(true).redirectOutput(out.toFile())
        .redirectInput(new File("/dev/null")).start();
    boolean ended = p.waitFor(5, TimeUnit.MINUTES);
    if (!ended) {
      p.destroy();
      p.waitFor(1, TimeUnit.MINUTES);
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    System.out.println(output);
    assertThat(ended).as(output).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    List<String> lines = output.lines().toList();
    int header = lines.indexOf(CorruptionCheckRun.Figures.HEADER);
    assertThat(header).as(output).isNotNegative();
    String[] row = lines.get(header + 1).trim().split("\\s+");
    assertThat(row).as(output).hasSize(9);
    assertThat(row[0]).isEqualTo("8");
    assertThat(row[1]).as("keys: 8 MiB of 4 KiB values").isEqualTo("2048");
    assertThat(Long.parseLong(row[2])).as("database MiB").isGreaterThanOrEqualTo(8);
    for (int i = 4; i < 9; i++) {
      assertThat(Long.parseLong(row[i])).as(HEADER_NAMES[i] + " in " + output)
          .isNotNegative();
    }
    assertThat(output).contains("corruption-check: etcd 3.6 (etcd-v3.6.").contains("load average");
    assertThat(Files.readString(run.resolve("8MiB/with-checks.log")))
        .contains("initial corruption checking passed").contains("finished peer corruption check");
    assertThat(Files.readString(run.resolve("8MiB/without-checks.log")))
        .doesNotContain("corruption check");
  }

  @Test
  void refusesAnUnknownEtcdMinor(@TempDir Path dir) throws Exception {
    Path root = repoRoot();
    Process p = new ProcessBuilder(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Ddruid.repoRoot=" + root, "-jar", root.resolve("devtools/target/druid-dev.jar")
            .toString(), "bench", "corruption-check", "--etcd-version=3.4"))
        .redirectErrorStream(true).redirectInput(new File("/dev/null")).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(output).isNotZero();
    assertThat(output).contains("--etcd-version must be 3.5, 3.6 or 3.7, not 3.4");
  }

  private static final String[] HEADER_NAMES = {"MiB", "keys", "db MiB", "fill s",
      "start with checks", "start without", "initial check", "periodic check", "HashKV"};

  private static Path repoRoot() {
    Path dir = Path.of("").toAbsolutePath();
    return Files.isRegularFile(dir.resolve("druid")) ? dir : dir.getParent();
  }
}
