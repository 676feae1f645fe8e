package cloud.gardener.druid.operator.task;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.Defragment;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DefragmentPlanTest {

  final DefragmentPlan plan = new DefragmentPlan(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG));

  @Test
  void defragmentsFollowersFirstThenMovesLeadershipAndDefragmentsTheFormerLeaderLast() {
    FakeCluster c = cluster(3, 1);
    assertThat(runToCompletion(c)).containsExactly("defragment etcd-0", "defragment etcd-2",
        "move leader etcd-1 -> etcd-0", "defragment etcd-1");
  }

  @Test
  void aSingleMemberIsDefragmentedInPlace() {
    assertThat(runToCompletion(cluster(1, 0))).containsExactly("defragment etcd-0");
  }

  @Test
  void waitsWhileAMemberIsNotReadyOrLags() {
    FakeCluster c = cluster(3, 0);
    c.members.get(2).ready = false;
    assertThat(plan.next(c.snapshot(), Set.of())).isInstanceOf(Wait.class);
    c.members.get(2).ready = true;
    c.members.get(2).raftIndex = 100 - AgentApi.MAX_RAFT_LAG - 100;
    c.members.get(0).raftIndex = 100;
    RolloutAction step = plan.next(c.snapshot(), Set.of("etcd-1"));
    assertThat(step).isInstanceOf(Wait.class);
    assertThat(((Wait) step).reason()).contains("etcd-2");
  }

  @Test
  void neverDefragmentsAMemberTwiceAndIsDoneWhenAllAre() {
    FakeCluster c = cluster(3, 0);
    assertThat(plan.next(c.snapshot(), Set.of("etcd-0", "etcd-1", "etcd-2")))
        .isInstanceOf(Done.class);
  }

  /** Applies each step to the fake cluster (a leadership move changes roles) until Done. */
  private List<String> runToCompletion(FakeCluster c) {
    List<String> steps = new ArrayList<>();
    Set<String> done = new HashSet<>();
    for (int i = 0; i < 10; i++) {
      RolloutAction step = plan.next(c.snapshot(), done);
      if (step instanceof Done) {
        return steps;
      } else if (step instanceof Defragment d) {
        steps.add("defragment " + d.name());
        done.add(d.name());
      } else if (step instanceof MoveLeader m) {
        steps.add("move leader " + m.fromName() + " -> " + m.toName());
        c.members.get(m.fromOrdinal()).role = "Member";
        c.members.get(Integer.parseInt(m.toName().substring("etcd-".length()))).role = "Leader";
      } else {
        throw new AssertionError("unexpected " + step);
      }
    }
    throw new AssertionError("no end after " + steps);
  }

  private static FakeCluster cluster(int size, int leader) {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", size));
    for (int i = 0; i < size; i++) {
      c.add(i, "new").role = i == leader ? "Leader" : "Member";
    }
    return c;
  }
}
