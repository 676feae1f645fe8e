package cloud.gardener.druid.operator.capacity;

import static cloud.gardener.druid.operator.capacity.SpaceForecastTest.MI;
import static cloud.gardener.druid.operator.capacity.SpaceForecastTest.space;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.CapacitySpec;
import cloud.gardener.druid.operator.capacity.CapacityAction.Compact;
import cloud.gardener.druid.operator.capacity.CapacityAction.Defragment;
import cloud.gardener.druid.operator.capacity.CapacityAction.DisarmAlarm;
import cloud.gardener.druid.operator.capacity.CapacityAction.GrowVolume;
import cloud.gardener.druid.operator.capacity.CapacityAction.Hold;
import cloud.gardener.druid.operator.capacity.CapacityAction.Idle;
import cloud.gardener.druid.operator.capacity.CapacityAction.MoveLeader;
import cloud.gardener.druid.operator.capacity.CapacityAction.RaiseQuota;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.observe.VolumeView;
import cloud.gardener.druid.operator.testing.FakeCluster;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CapacityPlanTest {

  final CapacityPlan plan = new CapacityPlan(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG));

  @Test
  void aFragmentedDatabaseGrowingTowardTheQuotaIsDefragmentedFollowersFirstLeaderLast() {
    FakeCluster c = SpacePlans.cluster(3, 1);
    c.members.values().forEach(m -> m.space = space(40, 10, 64, 2, 0));
    List<String> steps = run(c, 0);
    assertThat(steps).containsExactly("defragment etcd-0", "defragment etcd-2",
        "move leader etcd-1 -> etcd-0", "defragment etcd-1");
    assertThat(plan.next(c.snapshot(), SpaceForecast.of(c.snapshot()), policy(c), 0))
        .isInstanceOf(Idle.class);
  }

  @Test
  void theTriggerNamesTheForecast() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.members.values().forEach(m -> m.space = space(40, 10, 64, 2, 0));
    CapacityAction a = next(c, 0);
    assertThat(a).isInstanceOf(Defragment.class);
    assertThat(a.describe()).isEqualTo("defragmenting member etcd-1 (etcd-0: forecast to reach"
        + " the quota in ~10m (defragmentWithin 6h0m0s); 40Mi of the 64Mi quota (in use 10Mi),"
        + " quota reached in ~10m, volume full in ~4d)");
  }

  @Test
  void anActionWaitsWhileAnEtcdOpsTaskChangesTheMembers() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.members.values().forEach(m -> m.space = space(40, 10, 64, 2, 0));
    CapacityAction wanted = next(c, 0);
    assertThat(CapacityPlan.unlessTasksRun(wanted, List.of())).isSameAs(wanted);
    CapacityAction held = CapacityPlan.unlessTasksRun(wanted, List.of("defrag-1 (defragment)"));
    assertThat(held.acts()).isFalse();
    assertThat(held.describe()).isEqualTo(wanted.describe()
        + " waits: EtcdOpsTask defrag-1 (defragment) is in progress");
  }

  @Test
  void aDatabaseWithLittleToGiveBackIsNotDefragmented() {
    FakeCluster c = SpacePlans.cluster(1, 0);
    c.members.get(0).space = space(40, 38, 64, 2, 0);
    assertThat(next(c, 0)).isInstanceOf(Idle.class);
  }

  @Test
  void aHighWaterMarkOrFragmentationTriggersWithoutGrowth() {
    FakeCluster c = SpacePlans.cluster(1, 0);
    c.members.get(0).space = space(54, 30, 64, 0, 0);
    assertThat(next(c, 0).describe()).contains("84% of the quota is used");
    c.members.get(0).space = space(30, 10, 64, 0, 0);
    assertThat(next(c, 0).describe()).contains("66% of the database is free pages");
    c.members.get(0).space = space(20, 15, 64, 0, 0);
    assertThat(next(c, 0)).isInstanceOf(Idle.class);
  }

  @Test
  void nothingWhileAMemberIsNotHealthyOrAVolumeOperationRunsOrWhenTurnedOff() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.members.values().forEach(m -> m.space = space(40, 10, 64, 2, 0));
    c.members.get(2).raftIndex = 100 - AgentApi.MAX_RAFT_LAG - 100;
    c.members.get(0).raftIndex = 100;
    assertThat(next(c, 0)).isInstanceOf(Hold.class);
    c.members.get(2).raftIndex = 100;
    c.etcd.getSpec().getEtcd().setCapacity(new CapacitySpec());
    c.etcd.getSpec().getEtcd().getCapacity().setAutomatic(false);
    assertThat(next(c, 0).describe()).contains("automatic capacity actions are off");
  }

  @Test
  void dataInUseGrowingTowardTheQuotaRaisesItWithinTheBound() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.members.values().forEach(m -> m.space = space(50, 48, 64, 1, 1));
    assertThat(next(c, 0)).as("no maxQuota: never raised").isInstanceOf(Idle.class);
    assertThat(SpaceVerdict.of(SpaceForecast.of(c.snapshot()), policy(c)).reason())
        .isEqualTo("QuotaForecast");
    maxQuota(c, "128Mi");
    CapacityAction a = next(c, 0);
    assertThat(a).isInstanceOf(RaiseQuota.class);
    assertThat(((RaiseQuota) a).toBytes()).isEqualTo(96 * MI);
    c.members.values().forEach(m -> m.space = space(90, 88, 96, 1, 1));
    assertThat(((RaiseQuota) next(c, 0)).toBytes()).as("at most maxQuota").isEqualTo(128 * MI);
    c.members.values().forEach(m -> m.space = space(120, 118, 128, 1, 1));
    assertThat(next(c, 0)).isInstanceOf(Idle.class);
    assertThat(SpaceVerdict.of(SpaceForecast.of(c.snapshot()), policy(c)).reason())
        .isEqualTo("QuotaAtMaximum");
  }

  @Test
  void aVolumeThatWouldNotHoldTheRaisedQuotaIsGrownFirstOnAnExpandableClass() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.volumeCapacity = new Quantity("256Mi");
    c.members.values().forEach(m -> m.space = space(50, 48, 64, 1, 1));
    maxQuota(c, "128Mi");
    CapacityAction held = next(c, 0);
    assertThat(held).isInstanceOf(Hold.class);
    assertThat(held.describe()).contains("does not allow expansion");
    ClusterSnapshot expandable = c.snapshot().withVolumes(new VolumeView(true, Optional.empty(),
        Optional.empty()));
    CapacityAction a = plan.next(expandable, SpaceForecast.of(expandable), policy(c), 0);
    assertThat(a).isInstanceOf(GrowVolume.class);
    // twice 96Mi beside the data directory's 70Mi of WAL and snapshots, in steps of 64Mi
    assertThat(((GrowVolume) a).toBytes()).isEqualTo(320 * MI);
  }

  @Test
  void noSpaceIsRecoveredByCompactingIfAllowedDefragmentingAndDisarming() {
    FakeCluster c = SpacePlans.cluster(3, 0);
    c.members.values().forEach(m -> m.space = SpacePlans.withAlarms(space(64, 40, 64, 0, 0),
        List.of(MemberSpace.NOSPACE)));
    assertThat(SpaceVerdict.of(SpaceForecast.of(c.snapshot()), policy(c)).reason())
        .isEqualTo("NoSpaceAlarm");
    CapacitySpec spec = new CapacitySpec();
    spec.setCompactOnNoSpace(true);
    c.etcd.getSpec().getEtcd().setCapacity(spec);
    assertThat(next(c, 0)).isInstanceOf(Compact.class);
    List<String> steps = run(c, 1000);
    assertThat(steps).containsExactly("defragment etcd-1", "defragment etcd-2",
        "move leader etcd-0 -> etcd-1", "defragment etcd-0", "disarm via etcd-1");
  }

  @Test
  void noSpaceWithEverythingInUseIsNotDisarmed() {
    FakeCluster c = SpacePlans.cluster(1, 0);
    c.members.get(0).space = SpacePlans.withAlarms(space(64, 64, 64, 0, 0),
        List.of(MemberSpace.NOSPACE));
    CapacityAction a = next(c, 1000);
    assertThat(a).isInstanceOf(Idle.class);
    assertThat(a.describe()).contains("the quota must be raised");
  }

  private CapacityAction next(FakeCluster c, long compacted) {
    ClusterSnapshot s = c.snapshot();
    return plan.next(s, SpaceForecast.of(s), policy(c), compacted);
  }

  private static CapacityPolicy policy(FakeCluster c) {
    return CapacityPolicy.of(c.etcd);
  }

  private static void maxQuota(FakeCluster c, String max) {
    CapacitySpec spec = new CapacitySpec();
    spec.setMaxQuota(new Quantity(max));
    spec.setDefragmentWithin(GoDuration.parse("6h"));
    c.etcd.getSpec().getEtcd().setCapacity(spec);
  }

  /** Applies each step to the fake cluster until it is idle. */
  private List<String> run(FakeCluster c, long compacted) {
    List<String> steps = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      CapacityAction a = next(c, compacted);
      if (a instanceof Idle) {
        return steps;
      } else if (a instanceof Defragment d) {
        steps.add("defragment " + d.name());
        FakeCluster.Member m = c.members.get(d.ordinal());
        m.space = SpacePlans.defragmented(m.space);
      } else if (a instanceof MoveLeader m) {
        steps.add("move leader " + m.fromName() + " -> " + m.toName());
        c.members.get(m.fromOrdinal()).role = "Member";
        c.members.get(Integer.parseInt(m.toName().substring("etcd-".length()))).role = "Leader";
      } else if (a instanceof DisarmAlarm d) {
        steps.add("disarm via etcd-" + d.viaOrdinal());
        c.members.values().forEach(m -> m.space = SpacePlans.withAlarms(m.space, List.of()));
      } else {
        throw new AssertionError("unexpected " + a.describe());
      }
    }
    throw new AssertionError("no end after " + steps);
  }
}
