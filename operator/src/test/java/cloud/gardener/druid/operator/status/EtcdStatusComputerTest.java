package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastOperation;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class EtcdStatusComputerTest {

  @Test
  void completeOnlyWhenEveryMemberIsUpdatedAndReady() {
    FakeCluster c = cluster(3, "new");
    assertThat(complete(c)).isTrue();

    c.members.get(1).podRevision = "old";
    assertThat(complete(c)).isFalse();

    c.members.get(1).podRevision = "new";
    c.members.get(1).ready = false;
    assertThat(complete(c)).isFalse();

    c.members.get(1).ready = true;
    c.members.get(1).terminating = true;
    assertThat(complete(c)).isFalse();
  }

  @Test
  void aSurplusMemberKeepsTheRolloutIncomplete() {
    FakeCluster c = cluster(3, "new");
    c.add(3, "new");
    assertThat(complete(c)).isFalse();
  }

  /** The rollout invariant over random worlds: complete implies no outdated or unready pod. */
  @RepeatedTest(200)
  void neverCompleteWhileAPodIsOutdatedOrNotReady() {
    Random r = new Random();
    int replicas = 1 + r.nextInt(5);
    FakeCluster c = cluster(replicas, "new");
    for (FakeCluster.Member m : c.members.values()) {
      m.podRevision = r.nextInt(4) == 0 ? "old" : "new";
      m.ready = r.nextInt(4) != 0;
      m.podExists = r.nextInt(8) != 0;
      m.terminating = r.nextInt(8) == 0;
    }
    boolean allGood = c.members.values().stream().allMatch(m -> m.podExists && m.ready
        && !m.terminating && "new".equals(m.podRevision));
    assertThat(complete(c)).isEqualTo(allGood);
  }

  @Test
  void unchangedWorldGivesAnIdenticalStatus() {
    FakeCluster c = cluster(3, "new");
    EtcdStatus first = EtcdStatusComputer.compute(c.snapshot(), c.desired(), null, Optional.of(1L), succeeded(), List.of());
    EtcdStatus second = EtcdStatusComputer.compute(c.snapshot(), c.desired(), first, Optional.of(1L), succeeded(), List.of());
    assertThat(StatusWriter.same(first, second)).isTrue();
  }

  @Test
  void aRestoringMemberShowsHowFarInItsEntryAndInAllMembersReady() {
    FakeCluster c = cluster(3, "new");
    c.members.get(1).ready = false;
    c.members.get(1).restoring = "restoring: 3 of 40 delta snapshots replayed";
    EtcdStatus s = EtcdStatusComputer.compute(c.snapshot(), c.desired(), null, Optional.of(1L),
        succeeded(), List.of());
    assertThat(condition(s, ConditionTypes.ALL_MEMBERS_READY).getMessage()).isEqualTo(
        "Members not ready: etcd-1 (restoring: 3 of 40 delta snapshots replayed).");
    assertThat(s.getMembers().get(1).getReason()).isEqualTo("Restoring");
    assertThat(s.getMembers().get(0).getReason()).isEqualTo("MemberReady");

    c.members.get(1).restoring = "restoring: 4 of 40 delta snapshots replayed";
    EtcdStatus next = EtcdStatusComputer.compute(c.snapshot(), c.desired(), s, Optional.of(1L),
        succeeded(), List.of());
    assertThat(StatusWriter.same(s, next)).as("further progress is a new status").isFalse();
    c.members.get(1).restoring = null;
    assertThat(EtcdStatusComputer.compute(c.snapshot(), c.desired(), next, Optional.of(1L),
        succeeded(), List.of()).getMembers().get(1).getReason()).isEqualTo("PodNotReady");
  }

  /**
   * One observation in which a ready member's agent gives no answer keeps the member's id and
   * role (from the other agents' views, else the previous status) and says since when.
   */
  @Test
  void aMemberWhoseAgentIsSilentKeepsItsIdAndRoleAndSaysSo() {
    FakeCluster c = cluster(3, "new");
    EtcdStatus answered = EtcdStatusComputer.compute(c.snapshot(), c.desired(), null,
        Optional.of(1L), succeeded(), List.of());
    assertThat(answered.getMembers().get(0).getAgentNotAnsweringSince()).isNull();

    c.members.get(0).agentAnswers = false;
    EtcdStatus silent = EtcdStatusComputer.compute(c.snapshot(), c.desired(), answered,
        Optional.of(1L), succeeded(), List.of());
    EtcdMemberStatus leader = silent.getMembers().get(0);
    assertThat(leader.getId()).isEqualTo("m0");
    assertThat(leader.getRole()).as("the others still follow it").isEqualTo("Leader");
    assertThat(leader.getStatus()).isEqualTo("Ready");
    assertThat(leader.getReason()).isEqualTo("AgentNotAnswering");
    assertThat(leader.getAgentNotAnsweringSince()).isEqualTo("2026-01-01T00:00:00Z");

    c.members.values().forEach(m -> m.agentAnswers = false);
    EtcdStatus allSilent = EtcdStatusComputer.compute(c.snapshot(), c.desired(), silent,
        Optional.of(1L), succeeded(), List.of());
    assertThat(allSilent.getMembers()).extracting(EtcdMemberStatus::getRole)
        .as("no agent answers: the previous roles").containsExactly("Leader", "Member", "Member");
    assertThat(allSilent.getMembers()).extracting(EtcdMemberStatus::getId)
        .containsExactly("m0", "m1", "m2");
    assertThat(StatusWriter.same(allSilent, EtcdStatusComputer.compute(c.snapshot(),
        c.desired(), allSilent, Optional.of(1L), succeeded(), List.of())))
        .as("a silence that goes on writes nothing new").isTrue();

    c.members.values().forEach(m -> m.agentAnswers = true);
    EtcdStatus back = EtcdStatusComputer.compute(c.snapshot(), c.desired(), allSilent,
        Optional.of(1L), succeeded(), List.of());
    assertThat(back.getMembers()).allSatisfy(m -> {
      assertThat(m.getAgentNotAnsweringSince()).isNull();
      assertThat(m.getReason()).isEqualTo("MemberReady");
    });
  }

  @Test
  void readyNeedsAQuorumOfTheVotingMembers() {
    FakeCluster c = cluster(3, "new");
    c.members.get(0).ready = false;
    c.members.get(1).ready = false;
    EtcdStatus s = EtcdStatusComputer.compute(c.snapshot(), c.desired(), null, Optional.of(1L), succeeded(), List.of());
    assertThat(condition(s, ConditionTypes.READY).getStatus()).isEqualTo("False");
    assertThat(condition(s, ConditionTypes.READY).getReason()).isEqualTo("QuorumLost");
  }

  @Test
  void keepsObservedGenerationWhenTheSpecWasNotReconciled() {
    FakeCluster c = cluster(3, "new");
    EtcdStatus prev = EtcdStatusComputer.compute(c.snapshot(), c.desired(), null, Optional.of(1L), succeeded(), List.of());
    c.etcd.getMetadata().setGeneration(2L);
    EtcdStatus next = EtcdStatusComputer.compute(c.snapshot(), c.desired(), prev, Optional.empty(), succeeded(), List.of());
    assertThat(next.getObservedGeneration()).isEqualTo(1L);
  }

  @Test
  void anEtcdCreatedHibernatedCompletesItsRollout() {
    FakeCluster c = cluster(0, "new");
    assertThat(complete(c)).isTrue();
    EtcdStatus s = c.etcd.getStatus();
    assertThat(condition(s, ConditionTypes.READY).getReason()).isEqualTo("NotChecked");
    assertThat(s.getReady()).isFalse();
  }

  /**
   * Hibernating a cluster whose member was not ready: conditions keep their status (upstream)
   * while a member pod is left, and the rollout completes once the last one is gone.
   */
  @Test
  void hibernationCompletesOnlyWhenNoMemberPodIsLeft() {
    FakeCluster c = cluster(3, "new");
    c.members.get(2).ready = false;
    EtcdStatus running = EtcdStatusComputer.compute(c.snapshot(), c.desired(), null,
        Optional.of(1L), succeeded(), List.of());
    c.etcd.getSpec().setReplicas(0);
    c.etcd.getMetadata().setGeneration(2L);
    c.etcd.setStatus(EtcdStatusComputer.compute(c.snapshot(), c.desired(), running,
        Optional.of(2L), succeeded(), List.of()));
    assertThat(RolloutCompletion.isComplete(c.etcd)).isFalse();
    assertThat(condition(c.etcd.getStatus(), ConditionTypes.ALL_MEMBERS_READY).getStatus())
        .isEqualTo("False");
    c.members.values().forEach(m -> m.podExists = false);
    c.etcd.setStatus(EtcdStatusComputer.compute(c.snapshot(), c.desired(), c.etcd.getStatus(),
        Optional.of(2L), succeeded(), List.of()));
    assertThat(RolloutCompletion.isComplete(c.etcd)).isTrue();
    assertThat(condition(c.etcd.getStatus(), ConditionTypes.ALL_MEMBERS_READY).getReason())
        .isEqualTo("NotChecked");
  }

  private static FakeCluster cluster(int replicas, String revision) {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", replicas));
    for (int i = 0; i < replicas; i++) {
      c.add(i, revision);
    }
    if (replicas > 0) {
      c.members.get(0).role = "Leader";
    }
    return c;
  }

  private static boolean complete(FakeCluster c) {
    Etcd etcd = c.etcd;
    etcd.setStatus(EtcdStatusComputer.compute(c.snapshot(), c.desired(), null,
        Optional.of(etcd.getMetadata().getGeneration()), succeeded(), List.of()));
    return RolloutCompletion.isComplete(etcd);
  }

  private static LastOperation succeeded() {
    LastOperation op = new LastOperation();
    op.setState("Succeeded");
    return op;
  }

  private static Condition condition(EtcdStatus s, String type) {
    return Condition.find(s.getConditions(), type).orElseThrow();
  }
}
