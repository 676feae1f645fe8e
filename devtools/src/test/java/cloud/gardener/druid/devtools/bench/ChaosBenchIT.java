package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.faults.FaultKind;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code druid bench chaos} as a person runs it: the developer jar as its own process, a fixed
 * seed whose eight rounds hit every fault kind once and run some of them during a rollout;
 * every round heals and every history check holds.
 */
class ChaosBenchIT {

  /**
   * Its plan: the six kinds in rounds 1-6, the etcd-kill of round 4 during a rollout, then two
   * more etcd-pauses (one rollout only: a rollout of three members costs about a minute here).
   */
  static final long SEED = 267;
  static final int ROUNDS = 8;
  private static final long TIMEOUT_MINUTES = 12;

  @Test
  void aSeededRunOfEveryFaultKindHealsEachTimeAndLosesNothing(@TempDir Path dir)
      throws Exception {
    Path root = repoRoot();
    Path jar = root.resolve("devtools/target/druid-dev.jar");
    assertThat(jar).as("the package phase builds it").isRegularFile();
    Path out = dir.resolve("out.txt");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Ddruid.repoRoot=" + root, "-jar", jar.toString(), "bench", "chaos",
        "--seed", Long.toString(SEED), "--rounds", Integer.toString(ROUNDS),
        "--dir", dir.resolve("run").toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(out.toFile()).redirectInput(new File("/dev/null")).start();
    boolean ended = p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
    if (!ended) {
      p.destroy(); // SIGTERM: its shutdown hook stops what it started
      p.waitFor(1, TimeUnit.MINUTES);
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    System.out.println(output); // its rounds and heal times, kept in the Failsafe report
    assertThat(ended).as(output).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    List<String> rounds = output.lines().filter(l -> l.startsWith("round ")).toList();
    assertThat(rounds).as(output).hasSize(ROUNDS).allMatch(l -> l.contains("healed in"));
    for (FaultKind kind : FaultKind.values()) {
      assertThat(rounds).as(kind.cliName()).anyMatch(l -> l.contains(kind.cliName()));
    }
    assertThat(rounds).anyMatch(l -> l.contains("during a rollout"));
    List<String> checks = output.lines().filter(l -> l.startsWith("ok ")
        || l.startsWith("FAILED ")).toList();
    assertThat(checks).as(output).hasSize(7).allMatch(l -> l.startsWith("ok "));
    assertThat(output).contains("chaos: every check held (seed " + SEED + ")");
  }

  private static Path repoRoot() {
    Path dir = Path.of("").toAbsolutePath();
    return Files.isRegularFile(dir.resolve("druid")) ? dir : dir.getParent();
  }
}
