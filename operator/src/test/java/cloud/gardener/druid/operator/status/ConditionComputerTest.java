package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.MemberVolumeBuilder;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.FakeCluster;
import cloud.gardener.druid.operator.volume.VolumeChange;
import cloud.gardener.druid.operator.volume.VolumeChanges;
import cloud.gardener.druid.operator.volume.VolumeDiff;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** VolumesUpToDate, BackupReady and ClusterIDMismatch, each reason from the observation. */
class ConditionComputerTest {

  final FakeCluster c = cluster(3);

  @Test
  void volumesAreUpToDateWhenNothingDiffers() {
    Condition v = volumes(c, VolumeChanges.none(), null);
    assertThat(v.getStatus()).isEqualTo(ConditionTypes.TRUE);
    assertThat(v.getReason()).isEqualTo("VolumesUpToDate");
  }

  @Test
  void aReplacementAwaitsConfirmationOfTheCurrentGenerationAndSaysHowToGiveIt() {
    Condition v = volumes(c, replace(1), null);
    assertThat(v.getStatus()).isEqualTo(ConditionTypes.FALSE);
    assertThat(v.getReason()).isEqualTo("AwaitingConfirmation");
    assertThat(v.getMessage()).contains("etcd-1: class a -> b", "kubectl -n ns annotate etcd etcd",
        Annotations.CONFIRM_VOLUME_REPLACEMENT + "=1");
  }

  @Test
  void aConfirmedReplacementIsReplacing() {
    c.etcd.getMetadata().setAnnotations(Map.of(Annotations.CONFIRM_VOLUME_REPLACEMENT, "1"));
    assertThat(volumes(c, replace(1), null).getReason()).isEqualTo("Replacing");
  }

  @Test
  void aSingleMemberWithoutAStoreIsRefused() {
    FakeCluster one = cluster(1);
    one.etcd.getSpec().setBackup(null);
    Condition v = volumes(one, replace(0), null);
    assertThat(v.getReason()).isEqualTo("NoBackupStore");
    assertThat(v.getMessage()).contains("spec.backup.store");
  }

  @Test
  void aRunningOperationIsReplacingOrRestoringWithItsPhaseAndMembers() {
    VolumeOperation replace = operation(VolumeOperation.Kind.REPLACE_MEMBER_VOLUME);
    replace.setCurrentMember("etcd-2");
    replace.setTask("fix");
    Condition v = volumes(c, VolumeChanges.none(), replace);
    assertThat(v.getReason()).isEqualTo("Replacing");
    assertThat(v.getMessage()).contains("ReplaceMemberVolume in phase Replacing", "etcd-2",
        "task fix");
    assertThat(volumes(c, VolumeChanges.none(),
        operation(VolumeOperation.Kind.RECOVER_FROM_QUORUM_LOSS)).getReason())
        .isEqualTo("Restoring");
    VolumeOperation finished = operation(VolumeOperation.Kind.REPLACE);
    finished.setPhase(VolumeOperation.PHASE_COMPLETED);
    assertThat(volumes(c, VolumeChanges.none(), finished).getReason())
        .isEqualTo("VolumesUpToDate");
  }

  @Test
  void growingVolumesAreExpanding() {
    VolumeChanges grow = new VolumeChanges(Map.of(2,
        new VolumeDiff.Result(VolumeChange.GROW, List.of("size 16Gi -> 20Gi"))));
    Condition v = volumes(c, grow, null);
    assertThat(v.getReason()).isEqualTo("Expanding");
    assertThat(v.getMessage()).contains("etcd-2");
  }

  @Test
  void aVolumeThatDiffersWithoutADecidedChangeIsPending() {
    MemberVolumeBuilder.VolumeSpec now = c.desired().volume();
    DesiredMembers other = new DesiredMembers("new", "another-revision",
        new MemberVolumeBuilder.VolumeSpec(now.storageClass(), new Quantity("20Gi"),
            now.template()));
    Condition v = ConditionComputer.volumesUpToDate(c.snapshot(), other, VolumeChanges.none(),
        null);
    assertThat(v.getReason()).isEqualTo("Pending");
    assertThat(v.getMessage()).contains("etcd-0", "etcd-1", "etcd-2");
  }

  @Test
  void clusterIdMismatchNamesEveryIdWhenMembersDisagree() {
    Condition same = ConditionComputer.clusterIdMismatch(c.snapshot());
    assertThat(same.getStatus()).isEqualTo(ConditionTypes.FALSE);
    assertThat(same.getReason()).isEqualTo("NoClusterIDMismatch");
    c.members.get(2).clusterId = "c2";
    Condition mismatch = ConditionComputer.clusterIdMismatch(c.snapshot());
    assertThat(mismatch.getStatus()).isEqualTo(ConditionTypes.TRUE);
    assertThat(mismatch.getReason()).isEqualTo("ClusterIDMismatch");
    assertThat(mismatch.getMessage()).contains("c1", "c2");
  }

  @Test
  void backupReadyIsAbsentWithoutAStore() {
    c.etcd.getSpec().setBackup(null);
    assertThat(BackupReadiness.compute(c.snapshot())).isEmpty();
  }

  @Test
  void backupIsPendingUntilBothSnapshotKindsWereTaken() {
    Condition b = backup(Optional.empty(), Optional.of(lease(Duration.ofSeconds(5))));
    assertThat(b.getStatus()).isEqualTo(ConditionTypes.UNKNOWN);
    assertThat(b.getReason()).isEqualTo("BackupPending");
    assertThat(b.getMessage()).contains("full not taken yet", "delta fresh");
  }

  @Test
  void backupSucceedsWhileBothLeasesAreFresh() {
    Condition b = backup(Optional.of(lease(Duration.ofMinutes(30))),
        Optional.of(lease(Duration.ofSeconds(30))));
    assertThat(b.getStatus()).isEqualTo(ConditionTypes.TRUE);
    assertThat(b.getReason()).isEqualTo("BackupSucceeded");
  }

  @Test
  void backupFailsOnceALeaseIsOlderThanThreePeriods() {
    // delta snapshots every 20s by default: late after 40s, stale after 60s
    Condition late = backup(Optional.of(lease(Duration.ofMinutes(30))),
        Optional.of(lease(Duration.ofSeconds(50))));
    assertThat(late.getReason()).isEqualTo("BackupPending");
    Condition stale = backup(Optional.of(lease(Duration.ofMinutes(30))),
        Optional.of(lease(Duration.ofSeconds(61))));
    assertThat(stale.getStatus()).isEqualTo(ConditionTypes.FALSE);
    assertThat(stale.getReason()).isEqualTo("BackupFailed");
    assertThat(stale.getMessage()).contains("delta stale");
  }

  private Condition backup(Optional<Lease> full, Optional<Lease> delta) {
    ClusterSnapshot s = c.snapshot();
    return BackupReadiness.compute(new ClusterSnapshot(s.etcd(), s.members(), full, delta,
        s.observedAt())).orElseThrow();
  }

  private Lease lease(Duration age) {
    Instant renewed = c.snapshot().observedAt().minus(age);
    return new LeaseBuilder().withNewMetadata().withName("l").endMetadata().withNewSpec()
        .withRenewTime(ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC)).endSpec().build();
  }

  private static Condition volumes(FakeCluster c, VolumeChanges changes, VolumeOperation op) {
    return ConditionComputer.volumesUpToDate(c.snapshot(), c.desired(), changes, op);
  }

  private static VolumeChanges replace(int ordinal) {
    return new VolumeChanges(Map.of(ordinal,
        new VolumeDiff.Result(VolumeChange.REPLACE, List.of("class a -> b"))));
  }

  private static VolumeOperation operation(VolumeOperation.Kind kind) {
    VolumeOperation op = new VolumeOperation();
    op.setType(kind.type());
    op.setPhase(VolumeOperation.PHASE_REPLACING);
    return op;
  }

  private static FakeCluster cluster(int replicas) {
    FakeCluster c = new FakeCluster(Etcds.etcd("etcd", replicas));
    for (int i = 0; i < replicas; i++) {
      c.add(i, "new");
    }
    c.members.get(0).role = "Leader";
    return c;
  }
}
