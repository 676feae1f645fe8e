package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.BootstrapStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import cloud.gardener.druid.operator.testing.JoiningEtcds;
import org.junit.jupiter.api.Test;

class ExistingClusterStatusTest {

  @Test
  void noConditionWithoutTheField() {
    FakeCluster c = new FakeCluster(Etcds.etcd("t", 1));
    c.add(0, "new");
    assertThat(ExistingClusterStatus.record(c.snapshot(), new EtcdStatus())).isNull();
    assertThat(ExistingClusterStatus.condition(c.snapshot(), null)).isEmpty();
  }

  @Test
  void inProgressUntilEveryMemberVotesThenRecordedAndTrue() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joining("t", 2));
    c.foreign.addAll(JoiningEtcds.sourceMembership());
    c.foreignLeaderId = "s0";
    c.add(0, "new");
    c.add(1, "new").role = "Learner";
    assertThat(ExistingClusterStatus.record(c.snapshot(), new EtcdStatus())).isNull();
    Condition progress = ExistingClusterStatus.condition(c.snapshot(), null).orElseThrow();
    assertThat(progress.getStatus()).isEqualTo("False");
    assertThat(progress.getReason()).isEqualTo("BootstrapInProgress");
    assertThat(progress.getMessage()).contains("1 of 2 members have joined")
        .contains("t-1 is a learner");

    c.members.get(1).role = "Member";
    BootstrapStatus record = ExistingClusterStatus.record(c.snapshot(), new EtcdStatus());
    assertThat(record.getJoinedAt()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(record.getMembers()).extracting(BootstrapStatus.Member::getName)
        .containsExactly("src-0", "src-1", "src-2");
    Condition done = ExistingClusterStatus.condition(c.snapshot(), record).orElseThrow();
    assertThat(done.getStatus()).isEqualTo("True");
    assertThat(done.getReason()).isEqualTo("BootstrapSucceeded");
  }

  /** Sticky: once recorded, a member that stops voting does not turn it back. */
  @Test
  void theRecordIsKeptWhenAMemberStopsVoting() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joined("t", 2));
    c.add(0, "new").ready = false;
    c.add(1, "new");
    EtcdStatus previous = c.etcd.getStatus();
    BootstrapStatus kept = ExistingClusterStatus.record(c.snapshot(), previous);
    assertThat(kept).isSameAs(previous.getBootstrapWithExistingCluster());
    assertThat(ExistingClusterStatus.condition(c.snapshot(), kept).orElseThrow().getStatus())
        .isEqualTo("True");
  }
}
