package cloud.gardener.druid.operator.task;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.RemoveSourceMember;
import cloud.gardener.druid.operator.action.RolloutAction.TakeLeadership;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.testing.FakeCluster;
import cloud.gardener.druid.operator.testing.JoiningEtcds;
import org.junit.jupiter.api.Test;

class RetirePlanTest {

  final RetirePlan plan = new RetirePlan();

  @Test
  void leadershipMovesFirstThenTheSourceMembersLeaveOneAtATimeThroughOurLeader() {
    FakeCluster c = joinedWithSourceLeader();
    assertThat(plan.next(c.snapshot())).isEqualTo(new TakeLeadership(0, "t-0", "m0", "src-0"));
    c.foreignLeaderId = null;
    c.members.get(0).role = "Leader";
    assertThat(plan.next(c.snapshot())).isEqualTo(new RemoveSourceMember("src-2", "s2", 0));
    c.foreign.remove(2);
    assertThat(plan.next(c.snapshot())).isEqualTo(new RemoveSourceMember("src-1", "s1", 0));
    c.foreign.remove(1);
    assertThat(plan.next(c.snapshot())).isEqualTo(new RemoveSourceMember("src-0", "s0", 0));
    c.foreign.remove(0);
    assertThat(plan.next(c.snapshot())).isInstanceOf(Done.class);
  }

  @Test
  void waitsWhileAMemberOfOursDoesNotVote() {
    FakeCluster c = joinedWithSourceLeader();
    c.members.get(2).role = "Learner";
    assertThat(plan.next(c.snapshot())).isEqualTo(new Wait("t-2 is a learner catching up"));
  }

  /** Only the members recorded at the join are removed; any other foreign member stays. */
  @Test
  void removesOnlyTheRecordedSourceMembers() {
    FakeCluster c = joinedWithSourceLeader();
    c.foreignLeaderId = null;
    c.members.get(0).role = "Leader";
    c.foreign.clear();
    c.foreign.add(new Membership("x9", "someone-else", false));
    assertThat(plan.next(c.snapshot())).isInstanceOf(Done.class);
  }

  private static FakeCluster joinedWithSourceLeader() {
    FakeCluster c = new FakeCluster(JoiningEtcds.joined("t", 3));
    c.foreign.addAll(JoiningEtcds.sourceMembership());
    c.foreignLeaderId = "s0";
    for (int i = 0; i < 3; i++) {
      c.add(i, "new");
    }
    return c;
  }
}
