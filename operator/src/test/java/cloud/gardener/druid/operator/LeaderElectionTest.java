package cloud.gardener.druid.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LeaderElectionTest {

  @Test
  void everyProcessHasItsOwnIdentity() {
    assertThat(LeaderElection.newIdentity()).isNotEqualTo(LeaderElection.newIdentity());
  }

  @Test
  void losingTheLeaseStopsTheReplicaButAStopIsNoLoss() {
    AtomicInteger lost = new AtomicInteger();
    LeaderElection election = new LeaderElection("op-a", LeaderElection.Timing.DEFAULT,
        lost::incrementAndGet);
    LeaderElectionConfiguration config = election.configuration("druid-system");
    assertThat(config.getIdentity()).contains("op-a");
    assertThat(config.getLeaseNamespace()).contains("druid-system");
    assertThat(config.getLeaseName()).isEqualTo(LeaderElection.LEASE_NAME);
    assertThat(config.isExitOnStopLeading()).as("JOSDK would exit inside the shutdown hook")
        .isFalse();

    config.getLeaderCallbacks().orElseThrow().onStopLeading();
    assertThat(lost).hasValue(1);

    election.closing();
    config.getLeaderCallbacks().orElseThrow().onStopLeading();
    assertThat(lost).hasValue(1);
  }

  @Test
  void theDefaultTimingCostsTheLeaderAFifthOfARequestPerSecond() {
    LeaderElection.Timing timing = LeaderElection.Timing.DEFAULT;
    LeaderElectionConfiguration config = new LeaderElection("op-a", timing, () -> { })
        .configuration("druid-system");
    assertThat(config.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.getRenewDeadline()).isEqualTo(Duration.ofSeconds(20));
    assertThat(config.getRetryPeriod()).isEqualTo(Duration.ofSeconds(10));
    assertThat(timing.leaderRequestsPerSecond()).isEqualTo(0.2);
    assertThat(new LeaderElection.Timing(Duration.ofSeconds(15), Duration.ofSeconds(10),
        Duration.ofSeconds(2)).leaderRequestsPerSecond()).as("controller-runtime's").isEqualTo(1.0);
  }

  @Test
  void timingThatCouldLetTwoLeadersActIsRefusedNamingTheFlag() {
    assertThatThrownBy(() -> new LeaderElection.Timing(Duration.ofSeconds(20),
        Duration.ofSeconds(20), Duration.ofSeconds(5)))
        .hasMessageContaining("--leader-election-lease-duration (20 s) must be longer than"
            + " --leader-election-renew-deadline (20 s)");
    assertThatThrownBy(() -> new LeaderElection.Timing(Duration.ofSeconds(30),
        Duration.ofSeconds(10), Duration.ofSeconds(10)))
        .hasMessageContaining("--leader-election-renew-deadline (10 s) must be longer than"
            + " --leader-election-retry-period");
    assertThatThrownBy(() -> new LeaderElection.Timing(Duration.ofSeconds(30),
        Duration.ofSeconds(20), Duration.ZERO))
        .hasMessageContaining("--leader-election-retry-period must be a positive duration");
  }
}
