package cloud.gardener.druid.operator.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.action.RolloutAction.CreateVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.TakeLeadership;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.testing.FakeCluster;
import cloud.gardener.druid.operator.testing.JoiningEtcds;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExistingClusterStepsTest {

  final MemberRollout rollout = new MemberRollout(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG));

  /** No member of ours runs: a new Etcd would bootstrap them all; a joining one starts one. */
  @Test
  void startsOneMemberAtATimeAndNeverBootstraps() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joining("t", 3));
    for (int i = 0; i < 3; i++) {
      c.add(i, "new").podExists = false;
    }
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new CreatePods(List.of(0), "joining the existing cluster, one member at a time"));
  }

  @Test
  void theNextMemberWaitsUntilTheOnesBeforeVote() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joining("t", 3));
    c.foreign.addAll(JoiningEtcds.sourceMembership());
    c.foreignLeaderId = "s0";
    c.add(0, "new").role = "Learner";
    c.add(1, "new").podExists = false;
    c.add(2, "new").podExists = false;
    RolloutAction step = rollout.next(c.snapshot(), c.desired());
    assertThat(step).isInstanceOf(Wait.class);
    assertThat(((Wait) step).reason()).contains("t-0 is a learner").contains("t-1 joins");

    c.members.get(0).role = "Member";
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new CreatePods(List.of(1), "joining the existing cluster, one member at a time"));
  }

  /** A member of ours that cannot start (its agent refuses the join) holds the others back. */
  @Test
  void aMemberThatIsNotReadyHoldsTheNextBack() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joining("t", 3));
    c.add(0, "new").ready = false;
    c.add(1, "new").podExists = false;
    c.add(2, "new").podExists = false;
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Wait.class);
  }

  @Test
  void missingVolumesComeFirst() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joining("t", 3));
    for (int i = 0; i < 3; i++) {
      FakeCluster.Member m = c.add(i, "new");
      m.podExists = false;
      m.hasVolume = false;
    }
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(CreateVolumes.class);
  }

  /** Joined, with a store, a source member leads: leadership moves to ours (snapshots). */
  @Test
  void leadershipMovesToAMemberOfOursOnceAllVote() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joined("t", 3));
    c.foreign.addAll(JoiningEtcds.sourceMembership());
    c.foreignLeaderId = "s1";
    for (int i = 0; i < 3; i++) {
      c.add(i, "new");
    }
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new TakeLeadership(0, "t-0", "m0", "src-1"));
    c.foreignLeaderId = null;
    c.members.get(0).role = "Leader";
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Done.class);
  }

  /** Six voting members, three of them the source's: quorum is held while a leader exists. */
  @Test
  void sourceVotersCountTowardQuorumWhileOursFollowALeader() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joined("t", 3));
    c.foreign.addAll(JoiningEtcds.sourceMembership());
    c.foreignLeaderId = "s1";
    for (int i = 0; i < 3; i++) {
      c.add(i, "new");
    }
    assertThat(c.snapshot().votingMembers()).isEqualTo(6);
    assertThat(c.snapshot().readyMembers()).isEqualTo(6);
    assertThat(c.snapshot().foreignLeader()).contains("src-1");
  }
}
