package cloud.gardener.druid.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
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
  void theDefaultTimingCostsTheLeaderAQuarterOfARequestPerSecondAndFabric8AcceptsIt() {
    LeaderElection.Timing timing = LeaderElection.Timing.DEFAULT;
    LeaderElectionConfiguration config = new LeaderElection("op-a", timing, () -> { })
        .configuration("druid-system");
    assertThat(config.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.getRenewDeadline()).isEqualTo(Duration.ofSeconds(20));
    assertThat(config.getRetryPeriod()).isEqualTo(Duration.ofSeconds(8));
    assertThat(timing.leaderRequestsPerSecond()).isEqualTo(0.25);
    fabric8Accepts(timing.leaseDuration(), timing.renewDeadline(), timing.retryPeriod());
    assertThat(new LeaderElection.Timing(Duration.ofSeconds(15), Duration.ofSeconds(10),
        Duration.ofSeconds(2)).leaderRequestsPerSecond()).as("controller-runtime's").isEqualTo(1.0);
  }

  @Test
  void timingThatCouldLetTwoLeadersActOrThatFabric8RefusesIsRefusedNamingTheFlag() {
    assertThatThrownBy(() -> new LeaderElection.Timing(Duration.ofSeconds(20),
        Duration.ofSeconds(20), Duration.ofSeconds(5)))
        .hasMessageContaining("--leader-election-lease-duration (20 s) must be longer than"
            + " --leader-election-renew-deadline (20 s)");
    assertThatThrownBy(() -> new LeaderElection.Timing(Duration.ofSeconds(30),
        Duration.ofSeconds(20), Duration.ofSeconds(10)))
        .hasMessageContaining("--leader-election-renew-deadline (20 s) must be longer than 2.2 x"
            + " --leader-election-retry-period (10 s)");
    assertThatThrownBy(() -> fabric8Accepts(Duration.ofSeconds(30), Duration.ofSeconds(20),
        Duration.ofSeconds(10))).as("the rule is fabric8's")
        .isInstanceOf(IllegalArgumentException.class);
    LeaderElection.Timing nine = new LeaderElection.Timing(Duration.ofSeconds(30),
        Duration.ofSeconds(20), Duration.ofSeconds(9));
    fabric8Accepts(nine.leaseDuration(), nine.renewDeadline(), nine.retryPeriod());
    assertThatThrownBy(() -> new LeaderElection.Timing(Duration.ofSeconds(30),
        Duration.ofSeconds(20), Duration.ZERO))
        .hasMessageContaining("--leader-election-retry-period must be a positive duration");
  }

  /** fabric8's elector, which JOSDK builds from the configuration, takes these durations. */
  private static void fabric8Accepts(Duration lease, Duration renew, Duration retry) {
    new LeaderElectorBuilder(null, Runnable::run).withConfig(new LeaderElectionConfig(
        new LeaseLock("ns", "lease", "me"), lease, renew, retry,
        new LeaderCallbacks(() -> { }, () -> { }, leader -> { }), false, "lease"));
  }
}
