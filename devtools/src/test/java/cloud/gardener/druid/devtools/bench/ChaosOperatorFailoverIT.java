package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two operator replicas with leader election, the leading one SIGKILLed in the middle of a
 * rollout, twice, through {@code druid bench chaos --faults operator-failover}: each time a
 * replica other than the killed one (the standby, or the replacement started at once as a
 * ReplicaSet would) takes the lease and finishes the rollout; nothing acknowledged is lost and the
 * rollout predicate is never true early over every Etcd version observed.
 */
class ChaosOperatorFailoverIT {

  /** Its plan: two failovers, each during a rollout (the plan puts every failover in one). */
  static final long SEED = 1;
  /** {@code operator-2 (leader; operator standing by), operator-3 took over}. */
  private static final Pattern FAILOVER = Pattern.compile("(operator(?:-\\d+)?) \\(leader; "
      + "(operator(?:-\\d+)?) standing by\\), (operator(?:-\\d+)?) took over");
  private static final long TIMEOUT_MINUTES = 14;

  @Test
  void aReplicaOtherThanTheKilledLeaderTakesOverItsRolloutAndFinishesIt(@TempDir Path dir)
      throws Exception {
    ChaosLauncher.Outcome run = ChaosLauncher.run(dir, TIMEOUT_MINUTES, "--seed",
        Long.toString(SEED), "--rounds", "2", "--faults", "operator-failover");
    String output = run.output();
    assertThat(run.exitCode()).as(output).isZero();
    List<String> rounds = run.rounds();
    assertThat(rounds).as(output).hasSize(2).allMatch(l -> l.contains("operator-failover")
        && l.contains("during a rollout") && l.contains("healed in"));
    // the standby or the killed leader's replacement (started at once) takes the lease
    for (String round : rounds) {
      Matcher m = FAILOVER.matcher(round);
      assertThat(m.find()).as(round).isTrue();
      assertThat(m.group(3)).as(round).isNotEqualTo(m.group(1));
    }
    assertThat(run.checks()).as(output).hasSize(8).allMatch(l -> l.startsWith("ok "));
    assertThat(output).contains("chaos: every check held (seed " + SEED + ")");
  }
}
