package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.faults.FaultKind;
import java.nio.file.Path;
import java.util.List;
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
    ChaosLauncher.Outcome run = ChaosLauncher.run(dir, TIMEOUT_MINUTES,
        "--seed", Long.toString(SEED), "--rounds", Integer.toString(ROUNDS));
    String output = run.output();
    assertThat(run.exitCode()).as(output).isZero();
    List<String> rounds = run.rounds();
    assertThat(rounds).as(output).hasSize(ROUNDS).allMatch(l -> l.contains("healed in"));
    for (FaultKind kind : FaultKind.values()) {
      assertThat(rounds).as(kind.cliName()).anyMatch(l -> l.contains(kind.cliName()));
    }
    assertThat(rounds).anyMatch(l -> l.contains("during a rollout"));
    assertThat(run.checks()).as(output).hasSize(8).allMatch(l -> l.startsWith("ok "));
    assertThat(output).contains("chaos: every check held (seed " + SEED + ")");
  }
}
