package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.operator.observe.VolumeTask;

import cloud.gardener.druid.operator.observe.VolumeView;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.api.v1alpha1.HibernationSpec;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.rollout.MemberRollout;
import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.action.RolloutAction.CreateVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteMemberAndVolume;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteMembers;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.ExpandVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.PromoteLearner;
import cloud.gardener.druid.operator.action.RolloutAction.RecordVolumeOperation;
import cloud.gardener.druid.operator.action.RolloutAction.RemoveMember;
import cloud.gardener.druid.operator.action.RolloutAction.TakeFullSnapshot;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The volume flows decided step by step against a simulated cluster: what happens before
 * confirmation, the order of a replacement, and that never more than one member is missing.
 */
class VolumeFlowTest {

  final MemberRollout rollout = new MemberRollout(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG));

  @Test
  void nothingHappensBeforeConfirmationNorWithAConfirmationOfAnOlderGeneration() {
    Sim sim = new Sim(3, 1);
    sim.cluster.etcd.getMetadata().setGeneration(2L);
    assertThat(sim.next()).isInstanceOf(Done.class);
    sim.confirm(1);
    assertThat(sim.next()).isInstanceOf(Done.class);
  }

  @Test
  void replacesFollowersFromTheHighestOrdinalThenTheLeaderOneAtATimeAfterASnapshot() {
    Sim sim = new Sim(3, 1);
    sim.confirm(1);
    List<String> steps = sim.runToCompletion();
    assertThat(steps).containsExactly(
        "record Replace SnapshotPending",
        "full snapshot via etcd-1",
        "record Replace Replacing current=etcd-2",
        "delete pod+volume etcd-2", "remove etcd-2 via etcd-1", "create volume [2]",
        "create pod [2]", "promote etcd-2 via etcd-1",
        "record Replace Replacing done=[etcd-2]",
        "record Replace Replacing current=etcd-0 done=[etcd-2]",
        "delete pod+volume etcd-0", "remove etcd-0 via etcd-1", "create volume [0]",
        "create pod [0]", "promote etcd-0 via etcd-1",
        "record Replace Replacing done=[etcd-2, etcd-0]",
        "move leader etcd-1 -> etcd-0",
        "record Replace Replacing current=etcd-1 done=[etcd-2, etcd-0]",
        "delete pod+volume etcd-1", "remove etcd-1 via etcd-0", "create volume [1]",
        "create pod [1]", "promote etcd-1 via etcd-0",
        "record Replace Replacing done=[etcd-2, etcd-0, etcd-1]",
        "record Replace Completed done=[etcd-2, etcd-0, etcd-1]");
    assertThat(sim.maxMissingVoters).isEqualTo(1);
  }

  @Test
  void aFollowerThatLagsStopsTheNextReplacement() {
    Sim sim = new Sim(3, 0);
    sim.confirm(1);
    sim.recorded = op(VolumeOperation.TYPE_REPLACE, VolumeOperation.PHASE_SNAPSHOTTED);
    sim.cluster.members.get(2).ready = false;
    RolloutAction next = sim.next();
    assertThat(next).isInstanceOf(Wait.class);
    assertThat(next.describe()).contains("etcd-2");
  }

  @Test
  void resumesTheCurrentMemberAndNeverStartsASecondOneBeforeItIsBack() {
    Sim sim = new Sim(3, 0);
    sim.confirm(1);
    VolumeOperation op = op(VolumeOperation.TYPE_REPLACE, VolumeOperation.PHASE_REPLACING);
    op.setCurrentMember("etcd-2");
    sim.recorded = op;
    FakeCluster.Member m2 = sim.cluster.members.get(2);
    m2.inMembership = false;
    m2.podExists = false;
    m2.hasVolume = false;
    sim.old.remove(2);
    assertThat(sim.next()).isEqualTo(new CreateVolumes(List.of(2)));
    m2.hasVolume = true;
    assertThat(sim.next()).isInstanceOf(CreatePods.class);
    m2.podExists = true;
    m2.ready = false;
    assertThat(sim.next()).isInstanceOf(Wait.class);
    m2.ready = true;
    m2.role = "Learner";
    m2.inMembership = true;
    assertThat(sim.next()).isEqualTo(new PromoteLearner(2, "etcd-2", "m2", 0));
  }

  @Test
  void aSingleMemberWithoutStoreIsNeverReplaced() {
    Sim sim = new Sim(1, 0);
    sim.cluster.etcd.getSpec().setBackup(null);
    sim.confirm(1);
    assertThat(sim.next()).isInstanceOf(Done.class);
  }

  @Test
  void aSingleMemberIsSnapshottedThenDeletedAndRestoredOnANewVolume() {
    Sim sim = new Sim(1, 0);
    sim.confirm(1);
    assertThat(sim.runToCompletion()).containsExactly(
        "record Replace SnapshotPending",
        "full snapshot via etcd-0",
        "record Replace Replacing current=etcd-0",
        "delete pod+volume etcd-0", "create volume [0]", "create pod [0]",
        "record Replace Replacing done=[etcd-0]",
        "record Replace Completed done=[etcd-0]");
  }

  @Test
  void growsInPlaceWithoutConfirmation() {
    Sim sim = new Sim(3, 0);
    sim.old.clear();
    sim.grow.addAll(List.of(0, 1, 2));
    assertThat(sim.next()).isEqualTo(new ExpandVolumes(List.of(0, 1, 2)));
  }

  @Test
  void hibernationDeletesVolumesOnlyAfterItsFinalSnapshotAndWakingRestoresMemberZeroAlone() {
    Sim sim = new Sim(3, 1);
    sim.old.clear();
    HibernationSpec h = new HibernationSpec();
    h.setDeleteVolumes(true);
    sim.cluster.etcd.getSpec().setHibernation(h);
    sim.cluster.etcd.getSpec().setReplicas(0);
    RolloutAction hibernate = sim.next();
    assertThat(hibernate).isInstanceOf(RolloutAction.Hibernate.class);
    RolloutAction.Hibernate hb = (RolloutAction.Hibernate) hibernate;
    assertThat(hb.finalSnapshotVia()).hasValue(1);
    assertThat(hb.recordAfterSnapshot()).isPresent();
    sim.cluster.members.values().forEach(m -> m.podExists = false);
    assertThat(sim.next()).isInstanceOf(Done.class); // no snapshot recorded yet: volumes kept
    sim.recorded = hb.recordAfterSnapshot().get();
    RolloutAction delete = sim.next();
    assertThat(delete).isInstanceOf(DeleteVolumes.class);
    sim.cluster.members.clear();
    sim.recorded = ((DeleteVolumes) delete).then();
    assertThat(sim.next()).isInstanceOf(Done.class);

    sim.cluster.etcd.getSpec().setReplicas(3);
    List<String> steps = sim.runToCompletion();
    assertThat(steps).containsSubsequence(
        "record HibernateDeleteVolumes Restoring", "create volume [0]", "create pod [0] alone",
        "create volume [1, 2]", "create pod [1]", "promote etcd-1 via etcd-0", "create pod [2]",
        "promote etcd-2 via etcd-0", "record HibernateDeleteVolumes Completed");
  }

  @Test
  void quorumLossRecoveryDeletesEveryMemberThenRestoresFromTheStore() {
    Sim sim = new Sim(3, 0);
    sim.old.clear();
    sim.cluster.members.get(1).podExists = false;
    sim.cluster.members.get(2).podExists = false;
    sim.cluster.members.get(0).ready = false;
    sim.task = Optional.of(new VolumeTask("t1", VolumeOperation.Kind.RECOVER_FROM_QUORUM_LOSS,
        Optional.empty()));
    RolloutAction first = sim.next();
    assertThat(first).isInstanceOf(RecordVolumeOperation.class);
    sim.apply(first);
    assertThat(sim.next()).isEqualTo(new DeleteMembers(List.of(0), "recovering from quorum loss"));
    List<String> steps = sim.runToCompletion();
    assertThat(steps).containsSubsequence("delete volumes [etcd-etcd-0, etcd-etcd-1, etcd-etcd-2]",
        "record RecoverFromQuorumLoss Restoring", "create pod [0] alone",
        "record RecoverFromQuorumLoss Completed");
  }

  private static VolumeOperation op(String type, String phase) {
    VolumeOperation op = new VolumeOperation();
    op.setType(type);
    op.setPhase(phase);
    op.setGeneration(1L);
    op.setStartedAt("2026-01-01T00:00:00Z");
    return op;
  }

  /** A fake cluster that reacts to each step as the real world would. */
  final class Sim {
    final FakeCluster cluster;
    final Set<Integer> old = new HashSet<>();
    final Set<Integer> grow = new HashSet<>();
    VolumeOperation recorded;
    Optional<VolumeTask> task = Optional.empty();
    int maxMissingVoters;

    Sim(int replicas, int leader) {
      cluster = new FakeCluster(Etcds.etcd("etcd", replicas));
      cluster.desiredPodRevision = "r";
      for (int i = 0; i < replicas; i++) {
        cluster.add(i, "r");
        old.add(i);
      }
      cluster.members.get(leader).role = "Leader";
    }

    void confirm(long generation) {
      cluster.etcd.getMetadata().setAnnotations(
          Map.of(Annotations.CONFIRM_VOLUME_REPLACEMENT, Long.toString(generation)));
    }

    VolumeChanges changes() {
      Map<Integer, VolumeDiff.Result> changes = new HashMap<>();
      cluster.members.forEach((i, m) -> {
        if (m.hasVolume && old.contains(i)) {
          changes.put(i, new VolumeDiff.Result(VolumeChange.REPLACE, List.of("class a -> b")));
        } else if (m.hasVolume && grow.contains(i)) {
          changes.put(i, new VolumeDiff.Result(VolumeChange.GROW, List.of("size")));
        }
      });
      return new VolumeChanges(changes);
    }

    ClusterSnapshot snapshot() {
      return cluster.snapshot().withVolumes(new VolumeView(true, Optional.ofNullable(recorded),
          task));
    }

    RolloutAction next() {
      return rollout.next(snapshot(), cluster.desired(), changes());
    }

    List<String> runToCompletion() {
      List<String> steps = new ArrayList<>();
      for (int guard = 0; guard < 60; guard++) {
        RolloutAction a = next();
        if (a instanceof Done) {
          return steps;
        }
        if (a instanceof Wait w) {
          throw new AssertionError("stuck: " + w.describe() + " after " + steps);
        }
        steps.add(apply(a));
        long replicas = cluster.etcd.getSpec().getReplicas();
        long voting = cluster.members.values().stream()
            .filter(m -> m.podExists && m.ready && m.inMembership && !"Learner".equals(m.role))
            .count();
        maxMissingVoters = (int) Math.max(maxMissingVoters, replicas - voting);
      }
      throw new AssertionError("no completion: " + steps);
    }

    String apply(RolloutAction a) {
      if (a instanceof RecordVolumeOperation r) {
        recorded = r.operation();
        if (recorded.isFinished()) {
          task = Optional.empty();
        }
        return "record " + describe(recorded);
      }
      if (a instanceof TakeFullSnapshot t) {
        recorded = t.then();
        return "full snapshot via etcd-" + t.viaOrdinal();
      }
      if (a instanceof RemoveMember r) {
        cluster.members.get(r.ordinal()).inMembership = false;
        return "remove " + r.name() + " via etcd-" + r.viaOrdinal();
      }
      if (a instanceof DeleteMemberAndVolume d) {
        FakeCluster.Member m = cluster.members.get(d.ordinal());
        m.podExists = false;
        m.hasVolume = false;
        m.role = "Member";
        old.remove(d.ordinal());
        return "delete pod+volume " + d.name();
      }
      if (a instanceof DeleteMembers d) {
        d.ordinals().forEach(i -> cluster.members.get(i).podExists = false);
        return "delete pods " + d.ordinals();
      }
      if (a instanceof DeleteVolumes d) {
        cluster.members.clear();
        recorded = d.then();
        return "delete volumes " + d.pvcNames();
      }
      if (a instanceof CreateVolumes v) {
        v.ordinals().forEach(i -> {
          FakeCluster.Member m = cluster.members.get(i);
          if (m == null) {
            m = cluster.add(i, "r");
            m.podExists = false;
            m.inMembership = false;
          }
          m.hasVolume = true;
        });
        return "create volume " + v.ordinals();
      }
      if (a instanceof CreatePods p) {
        boolean cluster0 = cluster.members.values().stream()
            .noneMatch(m -> m.podExists && m.inMembership);
        p.ordinals().forEach(i -> {
          FakeCluster.Member m = cluster.members.get(i);
          m.podExists = true;
          m.ready = true;
          m.inMembership = true;
          m.role = cluster0 ? "Leader" : "Learner";
        });
        return "create pod " + p.ordinals() + (p.alone() ? " alone" : "");
      }
      if (a instanceof PromoteLearner p) {
        cluster.members.get(p.ordinal()).role = "Member";
        return "promote " + p.name() + " via etcd-" + p.viaOrdinal();
      }
      if (a instanceof MoveLeader mv) {
        cluster.members.get(mv.fromOrdinal()).role = "Member";
        cluster.members.get(Integer.parseInt(mv.toName().substring(5))).role = "Leader";
        return "move leader " + mv.fromName() + " -> " + mv.toName();
      }
      throw new AssertionError("unexpected " + a);
    }

    private String describe(VolumeOperation op) {
      return op.getType() + " " + op.getPhase()
          + (op.getCurrentMember() == null ? "" : " current=" + op.getCurrentMember())
          + (op.getCompletedMembers() == null || op.getCompletedMembers().isEmpty() ? ""
              : " done=" + op.getCompletedMembers());
    }
  }
}
