package cloud.gardener.druid.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kube-apiserver SIGKILLed and started again on the same address and etcd, through {@code
 * druid bench chaos --faults apiserver-kill}: the operator process outlives the outage, the
 * members acknowledge writes throughout it and refuse none, and the rollout that the outage
 * interrupted (round 1) and the spec change made as soon as the API is back (round 2) each
 * complete under the rollout contract with every member restarted exactly once.
 */
class ChaosApiServerKillIT {

  /** Its plan: round 1 down 4.7 s during a rollout, round 2 down 3.1 s, then a spec change. */
  static final long SEED = 1;
  private static final long TIMEOUT_MINUTES = 10;

  @Test
  void theOperatorAndTheMembersOutliveAnApiServerKillAndARolloutCompletesAfterIt(
      @TempDir Path dir) throws Exception {
    ChaosLauncher.Outcome run = ChaosLauncher.run(dir, TIMEOUT_MINUTES, "--seed",
        Long.toString(SEED), "--rounds", "2", "--faults", "apiserver-kill");
    String output = run.output();
    assertThat(run.exitCode()).as(output).isZero();
    List<String> rounds = run.rounds();
    assertThat(rounds).as(output).hasSize(2).allMatch(l -> l.contains("apiserver-kill")
        && l.contains("kube-apiserver down") && l.contains("healed in"));
    assertThat(rounds.get(0)).contains("during a rollout");
    assertThat(rounds.get(1)).doesNotContain("during a rollout");
    assertThat(run.checks()).as(output).hasSize(8).allMatch(l -> l.startsWith("ok "));
    assertThat(output).containsPattern("ok +operator and members outlived every API outage: "
        + "round 1: API down [0-9.]+s, [1-9][0-9]* writes acknowledged meanwhile, operator "
        + "survived, 3 of 3 member restarts; round 2: .*operator survived, 3 of 3");
  }
}
