package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two operator replicas with leader election, the leading one SIGKILLed in the middle of a
 * rollout, twice, through {@code druid bench chaos --faults operator-failover}: each time the
 * replica that ran beside it (in round 2 the one started in round 1 as the killed one's
 * replacement) takes the lease and finishes the rollout; nothing acknowledged is lost and the
 * rollout predicate is never true early over every Etcd version observed.
 */
class ChaosOperatorFailoverIT {

  /** Its plan: two failovers, each during a rollout (the plan puts every failover in one). */
  static final long SEED = 1;
  private static final long TIMEOUT_MINUTES = 14;

  @Test
  void theStandbyTakesOverAKilledLeadersRolloutAndFinishesIt(@TempDir Path dir)
      throws Exception {
    ChaosLauncher.Outcome run = ChaosLauncher.run(dir, TIMEOUT_MINUTES, "--seed",
        Long.toString(SEED), "--rounds", "2", "--faults", "operator-failover");
    String output = run.output();
    assertThat(run.exitCode()).as(output).isZero();
    List<String> rounds = run.rounds();
    assertThat(rounds).as(output).hasSize(2).allMatch(l -> l.contains("operator-failover")
        && l.contains("during a rollout") && l.contains("healed in"));
    assertThat(rounds.get(0)).contains("operator (leader), operator-2 takes over");
    assertThat(rounds.get(1)).contains("operator-2 (leader), operator-3 takes over");
    assertThat(run.checks()).as(output).hasSize(8).allMatch(l -> l.startsWith("ok "));
    assertThat(output).contains("chaos: every check held (seed " + SEED + ")");
  }
}
