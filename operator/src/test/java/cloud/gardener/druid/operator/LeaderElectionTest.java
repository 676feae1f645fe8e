package cloud.gardener.druid.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
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
    LeaderElection election = new LeaderElection("op-a", lost::incrementAndGet);
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
}
