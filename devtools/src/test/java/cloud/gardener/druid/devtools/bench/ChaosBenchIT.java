package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.faults.FaultKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code druid bench chaos} as a person runs it: the developer jar as its own process, a fixed
 * seed whose eight rounds hit every fault kind once and run one of them during a rollout;
 * every round heals and every history check holds.
 */
class ChaosBenchIT {

  /**
   * Its plan: the eight kinds once each (so two operator replicas run), two rollouts only (a
   * rollout of three members costs about a minute here): the spec change right after the
   * apiserver-kill of round 2 and the one the operator-failover of round 3 hits.
   */
  static final long SEED = 34;
  static final int ROUNDS = 8;
  private static final long TIMEOUT_MINUTES = 20;

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
