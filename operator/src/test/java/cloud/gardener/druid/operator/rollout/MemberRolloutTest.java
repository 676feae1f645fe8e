package cloud.gardener.druid.operator.rollout;

import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RestartReason;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.operator.action.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.action.RolloutAction.CreateVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteSurplusMember;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.PromoteLearner;
import cloud.gardener.druid.operator.action.RolloutAction.RemoveMember;
import cloud.gardener.druid.operator.action.RolloutAction.RestartMember;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemberRolloutTest {

  final MemberRollout rollout = new MemberRollout(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG));

  @Test
  void rollsFollowersFirstFromTheHighestOrdinalAndTheLeaderLastAfterMovingLeadership() {
    FakeCluster c = threeMembers("old", 1);
    List<String> steps = runToCompletion(c);
    assertThat(steps).containsExactly(
        "restart etcd-2", "restart etcd-0", "move leader etcd-1 -> etcd-0", "restart etcd-1");
  }

  @Test
  void rollsTheSameWayWhenEveryRestartWaitsForItsPodToTerminate() {
    FakeCluster c = threeMembers("old", 1);
    List<String> steps = runToCompletion(c, true);
    assertThat(steps).containsExactly(
        "restart etcd-2", "restart etcd-2 (pod terminating)",
        "restart etcd-0", "restart etcd-0 (pod terminating)",
        "move leader etcd-1 -> etcd-0",
        "restart etcd-1", "restart etcd-1 (pod terminating)");
  }

  /**
   * Everything is updated, but one member's agent gave no answer in this observation: the
   * rollout is not done (it cannot see whether that member votes), it waits for the member.
   */
  @Test
  void notDoneWhileAMemberIsNotSeenVoting() {
    FakeCluster c = threeMembers("new", 0);
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Done.class);
    c.members.get(2).agentAnswers = false;
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new Wait("the agent of etcd-2 does not answer"));
    c.members.get(2).agentAnswers = true;
    c.members.get(2).role = "Learner";
    assertThat(rollout.next(c.snapshot(), c.desired())).isNotInstanceOf(Done.class);
  }

  @Test
  void aRestartWhosePodStillTerminatesIsPlannedAgainForTheSameMember() {
    FakeCluster c = threeMembers("old", 0);
    RolloutAction first = rollout.next(c.snapshot(), c.desired());
    c.members.get(2).terminating = true;
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(first)
        .isEqualTo(new RestartMember(2, "etcd-2", RestartReason.SPEC_CHANGED));
  }

  @Test
  void podsStillTerminatingWithoutQuorumAreWaitedForNotRestartedOneByOne() {
    FakeCluster c = threeMembers("new", 0);
    c.members.values().forEach(m -> {
      m.terminating = true;
      m.ready = false;
    });
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Wait.class);
  }

  @Test
  void aMemberEtcdStillListsStartsAgainOnItsVolumeAsARestartNotAsANewMember() {
    FakeCluster c = threeMembers("new", 0);
    c.members.get(2).podExists = false;
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new RestartMember(2, "etcd-2", RestartReason.POD_DELETED));
  }

  @Test
  void aMemberWhosePodIsGoneWaitsForTheOthersToBeReadyLikeANewOne() {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 5));
    for (int i = 0; i < 5; i++) {
      c.add(i, "new");
    }
    c.members.get(0).role = "Leader";
    c.members.get(4).podExists = false;
    c.members.get(3).ready = false;
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Wait.class);
    c.members.get(3).ready = true;
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new RestartMember(4, "etcd-4", RestartReason.POD_DELETED));
  }

  @Test
  void updatesAMemberThatIsNotReadyFirstWithoutWaitingForHealth() {
    FakeCluster c = threeMembers("old", 0);
    c.members.get(1).ready = false;
    RolloutAction first = rollout.next(c.snapshot(), c.desired());
    assertThat(first).isEqualTo(new RestartMember(1, "etcd-1",
        java.util.EnumSet.of(RestartReason.SPEC_CHANGED, RestartReason.NOT_READY)));
  }

  /** Pods whose labels and annotations differ are updated in place together, none restarts. */
  @Test
  void aLabelOnlyChangeIsAppliedInPlace() {
    FakeCluster c = threeMembers("new", 0);
    var desired = new cloud.gardener.druid.operator.model.DesiredMembers(
        c.desired().podRevision(), c.desired().volumeRevision(), c.desired().volume(), "labels-2");
    assertThat(rollout.next(c.snapshot(), desired)).isEqualTo(new RolloutAction.UpdateMemberMetadata(
        List.of(0, 1, 2), List.of("etcd-0", "etcd-1", "etcd-2")));
  }

  /** A restart names every reason that applies, the etcd configuration where it changed. */
  @Test
  void aRestartCarriesEveryReasonThatApplies() {
    FakeCluster c = threeMembers("old", 0);
    c.members.get(2).configChecksum = "an-older-configuration";
    RestartMember first = (RestartMember) rollout.next(c.snapshot(), c.desired());
    assertThat(first.reasons()).containsExactly(RestartReason.SPEC_CHANGED,
        RestartReason.ETCD_CONFIG_CHANGED);
    assertThat(first.describe()).isEqualTo("restarting member etcd-2 (the member's pod spec"
        + " changed; the etcd configuration changed)");
  }

  /** A raised quota (the capacity flow's, or spec.etcd.quota) is named on the restart. */
  @Test
  void aChangedQuotaIsNamedOnTheRestart() {
    FakeCluster c = threeMembers("old", 0);
    c.members.get(2).configChecksum = "an-older-configuration";
    c.members.get(2).quotaBytes = 24L << 20;
    RestartMember first = (RestartMember) rollout.next(c.snapshot(), c.desired());
    assertThat(first.reasons()).containsExactly(RestartReason.SPEC_CHANGED,
        RestartReason.ETCD_CONFIG_CHANGED, RestartReason.QUOTA_CHANGED);
    assertThat(first.describe()).isEqualTo("restarting member etcd-2 (the member's pod spec"
        + " changed; the etcd configuration changed; the space quota changes)");
  }

  /** A changed CA bundle (etcd reads it only at start) restarts with its own reason. */
  @Test
  void aChangedCaBundleRestartsWithTheReasonCertificateChanged() {
    FakeCluster c = new FakeCluster(cloud.gardener.druid.operator.model.TrustedCas.withChecksum(
        Etcds.etcd("etcd", 3), java.util.Optional.of("bundle-2")));
    for (int i = 0; i < 3; i++) {
      c.add(i, "old");
      c.members.get(i).trustedCaChecksum = "bundle-1";
    }
    c.members.get(1).role = "Leader";
    RestartMember first = (RestartMember) rollout.next(c.snapshot(), c.desired());
    assertThat(first.reasons()).containsExactly(RestartReason.SPEC_CHANGED,
        RestartReason.CERTIFICATE_CHANGED);
    assertThat(first.describe()).contains("certificate changed");
  }

  @Test
  void aRestartSaysWhyTheMemberRestarts() {
    FakeCluster c = threeMembers("old", 0);
    RolloutAction first = rollout.next(c.snapshot(), c.desired());
    assertThat(first).isEqualTo(new RestartMember(2, "etcd-2", RestartReason.SPEC_CHANGED));
    assertThat(first.describe()).contains("etcd-2", RestartReason.SPEC_CHANGED.text());
  }

  @Test
  void waitsWhileAFollowerLagsBehindTheLeader() {
    FakeCluster c = threeMembers("old", 0);
    c.members.get(0).raftIndex = 10_000;
    c.members.get(2).raftIndex = 10_000 - AgentApi.MAX_RAFT_LAG - 1;
    c.members.get(1).raftIndex = 10_000;
    RolloutAction next = rollout.next(c.snapshot(), c.desired());
    assertThat(next).isInstanceOf(Wait.class);
    assertThat(next.describe()).contains("etcd-2", "raft entries behind");
  }

  @Test
  void neverRestartsASecondMemberWhileOneIsNotBackYet() {
    FakeCluster c = threeMembers("old", 0);
    c.members.get(2).podRevision = "new";
    c.members.get(2).ready = false;
    RolloutAction next = rollout.next(c.snapshot(), c.desired());
    assertThat(next).isInstanceOf(Wait.class);
  }

  @Test
  void bootstrapCreatesEveryMemberAtOnce() {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(new CreateVolumes(List.of(0, 1, 2)));
    for (int i = 0; i < 3; i++) {
      c.add(i, "new").podExists = false;
    }
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new CreatePods(List.of(0, 1, 2), "bootstrapping the cluster"));
  }

  @Test
  void scaleOutAddsOneMemberAtATimeAndPromotesTheLearner() {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    c.add(0, "new").role = "Leader";
    c.add(1, "new").podExists = false;
    c.members.get(1).inMembership = false;
    c.add(2, "new").podExists = false;
    c.members.get(2).inMembership = false;
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(new CreatePods(List.of(1), "one member at a time"));
    c.members.get(1).podExists = true;
    c.members.get(1).ready = false;
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Wait.class);
    c.members.get(1).role = "Learner";
    c.members.get(1).inMembership = true;
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(new PromoteLearner(1, "etcd-1", "m1", 0));
  }

  @Test
  void scaleInRemovesTheHighestMemberFromEtcdBeforeDeletingIt() {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    c.add(0, "new").role = "Leader";
    for (int i = 1; i < 5; i++) {
      c.add(i, "new");
    }
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(new RemoveMember(4, "etcd-4", "m4", 0));
    c.members.get(4).inMembership = false;
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(new DeleteSurplusMember(4, "etcd-4"));
    c.members.remove(4);
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(new RemoveMember(3, "etcd-3", "m3", 0));
  }

  @Test
  void quorumLossRecreatesEveryMissingMemberAtOnce() {
    FakeCluster c = threeMembers("new", 0);
    c.members.get(1).podExists = false;
    c.members.get(2).podExists = false;
    c.members.get(0).ready = false;
    assertThat(rollout.next(c.snapshot(), c.desired()))
        .isEqualTo(new CreatePods(List.of(1, 2), "quorum is lost, starting every member"));
  }

  @Test
  void hibernationTakesAFinalSnapshotThroughTheLeaderThenStopsEveryMember() {
    FakeCluster c = threeMembers("new", 1);
    c.etcd.getSpec().setReplicas(0);
    RolloutAction a = rollout.next(c.snapshot(), c.desired());
    assertThat(a).isEqualTo(new RolloutAction.Hibernate(List.of(0, 1, 2), java.util.OptionalInt.of(1)));
    c.members.clear();
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Done.class);
  }

  private FakeCluster threeMembers(String revision, int leader) {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    for (int i = 0; i < 3; i++) {
      c.add(i, revision);
    }
    c.members.get(leader).role = "Leader";
    return c;
  }

  /** Applies each decided step to the fake cluster as the real world would, until Done. */
  private List<String> runToCompletion(FakeCluster c) {
    return runToCompletion(c, false);
  }

  /**
   * With {@code podsLinger}, each restart's pod is still terminating when the executor gives up
   * waiting for it; the next restart of that member finds it gone and creates it.
   */
  private List<String> runToCompletion(FakeCluster c, boolean podsLinger) {
    List<String> steps = new ArrayList<>();
    for (int guard = 0; guard < 20; guard++) {
      RolloutAction action = rollout.next(c.snapshot(), c.desired());
      if (action instanceof Done) {
        return steps;
      }
      if (action instanceof RestartMember r) {
        FakeCluster.Member m = c.members.get(r.ordinal());
        steps.add("restart " + r.name() + (m.terminating ? " (pod terminating)" : ""));
        if (podsLinger && !m.terminating) {
          m.terminating = true;
          continue;
        }
        m.terminating = false;
        m.podRevision = c.desiredPodRevision;
        if ("Leader".equals(m.role)) {
          m.role = "Member";
        }
      } else if (action instanceof MoveLeader mv) {
        steps.add("move leader " + mv.fromName() + " -> " + mv.toName());
        c.members.get(mv.fromOrdinal()).role = "Member";
        c.members.values().stream().filter(x -> x.podRevision.equals(c.desiredPodRevision))
            .findFirst().orElseThrow().role = "Leader";
      } else {
        throw new AssertionError("unexpected " + action);
      }
    }
    throw new AssertionError("no completion after 20 steps: " + steps);
  }
}
