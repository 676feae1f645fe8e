package cloud.gardener.druid.operator.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.operator.action.RestartReason;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.Done;
import cloud.gardener.druid.operator.action.RolloutAction.Downgrade;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.RestartMember;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The steps of a change of spec.etcd.version, in order, on a simulated 3-member cluster. */
class EtcdVersionChangeTest {

  final MemberRollout rollout = new MemberRollout(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG));

  @Test
  void anUpgradeSnapshotsOnceThenRollsLeaderLastAndIsDoneOnlyAtTheNewClusterVersion() {
    FakeCluster c = cluster(EtcdRelease.V3_5, "3.5.0", EtcdRelease.V3_6);
    List<String> steps = run(c);
    assertThat(steps).containsExactly(
        "full snapshot via etcd-1, then restart etcd-2 (etcd version)",
        "restart etcd-0 (etcd version)",
        "move leader etcd-1 -> etcd-0",
        "restart etcd-1 (etcd version)",
        "wait: etcd's cluster version to reach 3.6 (it is 3.5.0)");
    c.clusterVersion = "3.6.0";
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Done.class);
  }

  @Test
  void aDowngradeSnapshotsAndEnablesEtcdsDowngradeBeforeAnyMemberRestarts() {
    FakeCluster c = cluster(EtcdRelease.V3_7, "3.7.0", EtcdRelease.V3_6);
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(
        new Downgrade(1, Downgraded.Action.ENABLE, "3.6", OptionalInt.of(1)));
    c.downgradeTarget = "3.6";
    c.clusterVersion = "3.6.0";
    c.storageVersion = "3.7.0";
    assertThat(rollout.next(c.snapshot(), c.desired())).as("no restart before the migration")
        .isEqualTo(new Wait("etcd to migrate the database of etcd-2 to 3.6 (its schema is"
            + " 3.7.0)"));
    c.storageVersion = "3.6.0";
    assertThat(run(c)).containsExactly(
        "restart etcd-2 (etcd version)",
        "restart etcd-0 (etcd version)",
        "move leader etcd-1 -> etcd-0",
        "restart etcd-1 (etcd version)",
        "wait: etcd to finish its downgrade to 3.6");
    c.downgradeTarget = null;
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Done.class);
  }

  @Test
  void aDowngradeTheSpecNoLongerAsksForIsCancelledFirst() {
    FakeCluster c = cluster(EtcdRelease.V3_6, "3.6.0", EtcdRelease.V3_7);
    c.downgradeTarget = "3.6";
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(
        new Downgrade(1, Downgraded.Action.CANCEL, "3.6", OptionalInt.empty()));
  }

  @Test
  void aDowngradeEnabledByHandIsCancelledThoughEveryMemberIsUpToDate() {
    FakeCluster c = cluster(EtcdRelease.V3_7, "3.6.0", EtcdRelease.V3_7);
    c.members.values().forEach(m -> m.podRevision = c.desiredPodRevision);
    c.downgradeTarget = "3.6";
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(
        new Downgrade(1, Downgraded.Action.CANCEL, "3.6", OptionalInt.empty()));
    c.downgradeTarget = null;
    c.clusterVersion = "3.7.0";
    assertThat(rollout.next(c.snapshot(), c.desired())).isInstanceOf(Done.class);
  }

  @Test
  void rollingBackAHalfDoneUpgradeNeedsNoDowngradeNorAnotherSnapshot() {
    FakeCluster c = cluster(EtcdRelease.V3_5, "3.5.0", EtcdRelease.V3_5);
    c.members.get(2).etcd = EtcdRelease.V3_6;
    c.members.get(2).podRevision = "upgraded";
    RolloutAction next = rollout.next(c.snapshot(), c.desired());
    assertThat(next).isInstanceOf(RestartMember.class);
    assertThat(((RestartMember) next).snapshotFirstVia()).isEmpty();
    assertThat(((RestartMember) next).reasons()).contains(RestartReason.ETCD_VERSION_CHANGED);
  }

  /**
   * Right after a cancelled downgrade etcd's cluster version is still the lower one while every
   * member runs the newer etcd; a spec one below that (admitted on a stale status) would make
   * etcd accept a downgrade two minors below the members' databases. It waits instead.
   */
  @Test
  void aDowngradeTwoMinorsBelowARunningMemberIsNeverEnabled() {
    FakeCluster c = cluster(EtcdRelease.V3_7, "3.6.0", EtcdRelease.V3_5);
    assertThat(rollout.next(c.snapshot(), c.desired())).isEqualTo(new Wait(
        "spec.etcd.version to move one minor at a time: etcd-0 still runs etcd 3.7, and etcd"
            + " cannot open its database two minors below"));
  }

  @Test
  void withoutAStoreNoSnapshotIsAskedFor() {
    FakeCluster c = cluster(EtcdRelease.V3_5, "3.5.0", EtcdRelease.V3_6);
    c.etcd.getSpec().getBackup().setStore(null);
    assertThat(((RestartMember) rollout.next(c.snapshot(), c.desired())).snapshotFirstVia())
        .isEmpty();
  }

  /** Members at {@code running}, leader etcd-1, the spec asking for {@code wanted}. */
  private static FakeCluster cluster(EtcdRelease running, String clusterVersion,
      EtcdRelease wanted) {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", 3));
    c.etcd.getSpec().getEtcd().setVersion(wanted.minor());
    for (int i = 0; i < 3; i++) {
      c.add(i, "old").etcd = running;
    }
    c.members.get(1).role = "Leader";
    c.clusterVersion = clusterVersion;
    return c;
  }

  /** Applies each step as the real world would until the rollout waits for etcd or is done. */
  private List<String> run(FakeCluster c) {
    EtcdRelease wanted = EtcdRelease.ofSpec(c.etcd.getSpec().getEtcd().getVersion());
    List<String> steps = new ArrayList<>();
    for (int guard = 0; guard < 20; guard++) {
      RolloutAction action = rollout.next(c.snapshot(), c.desired());
      if (action instanceof Done) {
        return steps;
      }
      if (action instanceof Wait w) {
        steps.add("wait: " + w.reason());
        return steps;
      }
      if (action instanceof RestartMember r) {
        steps.add((r.snapshotFirstVia().isPresent() ? "full snapshot via etcd-"
            + r.snapshotFirstVia().getAsInt() + ", then " : "") + "restart " + r.name()
            + (r.reasons().contains(RestartReason.ETCD_VERSION_CHANGED) ? " (etcd version)" : ""));
        FakeCluster.Member m = c.members.get(r.ordinal());
        m.podRevision = c.desiredPodRevision;
        m.etcd = wanted;
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
    throw new AssertionError("no end after 20 steps: " + steps);
  }
}
