package cloud.gardener.druid.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskSpec;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdSpec;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.OpsTaskLastOperation;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class EtcdStatusReportTest {

  @Test
  void namesAMemberWhoseDataIsCorruptedWithTheCureAndTheBackupsRevisionLag() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns")
        .withGeneration(4L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(3);
    EtcdStatus s = new EtcdStatus();
    EtcdMemberStatus m = new EtcdMemberStatus();
    m.setName("main-2");
    m.setStatus("NotReady");
    m.setReason("DataCorrupted");
    m.setDataCorruption("etcd's initial corruption check found this member's data differs");
    s.setMembers(List.of(m));
    s.setVerifiedBackupRevisionLag(1200L);
    etcd.setStatus(s);

    String text = EtcdStatusReport.render(etcd);

    assertThat(text).containsPattern("main-2\\s+-\\s+-\\s+NotReady \\(DataCorrupted\\)")
        .contains("Data corrupted on main-2: etcd's initial corruption check found this"
            + " member's data differs\n  Cure: kubectl druid replace-member-volume main main-2")
        .contains("Backups: the cluster is 1200+ revisions ahead of the newest revision a drill"
            + " proved restorable");
  }

  @Test
  void showsMembersConditionsAndHowToConfirmAPendingVolumeChange() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns").withGeneration(4L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(3);
    EtcdStatus s = new EtcdStatus();
    s.setObservedGeneration(4L);
    EtcdMemberStatus m = new EtcdMemberStatus();
    m.setName("main-0");
    m.setRole("Leader");
    m.setStatus("Ready");
    m.setMemberRevision("abc");
    m.setUpdated(true);
    m.setEtcdVersion("3.6.16");
    s.setMembers(List.of(m));
    s.setEtcdClusterVersion("3.6.0");
    Condition c = new Condition();
    c.setType("VolumesUpToDate");
    c.setStatus("False");
    c.setReason("AwaitingConfirmation");
    c.setMessage("storage class standard -> encrypted");
    s.setConditions(List.of(c));
    etcd.setStatus(s);

    String text = EtcdStatusReport.render(etcd);

    assertThat(text).contains("Etcd ns/main", "Rollout: in progress", "AllMembersUpdated is absent")
        .containsPattern("main-0\\s+-\\s+Leader\\s+Ready\\s+3\\.6\\.16\\s+abc")
        .contains("etcd: 3.6, cluster version 3.6.0")
        .contains("kubectl -n ns annotate etcd main druid.gardener.cloud/confirm-volume-replacement=4");
  }

  @Test
  void showsTheSpaceItsForecastAndTheLastCapacityAction() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns").withGeneration(2L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(3);
    EtcdStatus s = new EtcdStatus();
    CapacityStatus c = new CapacityStatus();
    c.setDbSize(new Quantity("45Mi"));
    c.setDbSizeInUse(new Quantity("12Mi"));
    c.setQuota(new Quantity("96Mi"));
    c.setRaisedQuota(new Quantity("96Mi"));
    c.setVolumeSize(new Quantity("2Gi"));
    c.setVolumeFree(new Quantity("1900Mi"));
    c.setGrowthPerHour(new Quantity("30Mi"));
    c.setWritesPerSecond(25L);
    c.setTimeToQuota("1h");
    c.setLastAction("defragmenting member main-1 (forecast to reach the quota in ~1h)");
    c.setLastActionTime("2026-12-04T23:00:00Z");
    s.setCapacity(c);
    etcd.setStatus(s);

    assertThat(EtcdStatusReport.render(etcd)).contains("Space: db 45Mi (in use 12Mi) of quota"
        + " 96Mi (raised), volume 2Gi (1900Mi free); growing 30Mi/h at 25 writes/s; quota in ~1h\n"
        + "Last capacity action (2026-12-04T23:00:00Z): defragmenting member main-1 (forecast to"
        + " reach the quota in ~1h)");
    s.setCapacity(null);
    assertThat(EtcdStatusReport.render(etcd)).doesNotContain("Space:");
  }

  @Test
  void showsAMemberRestoringAndHowFar() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns").withGeneration(2L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(1);
    EtcdStatus s = new EtcdStatus();
    EtcdMemberStatus m = new EtcdMemberStatus();
    m.setName("main-0");
    m.setStatus("NotReady");
    m.setReason("Restoring");
    s.setMembers(List.of(m));
    Condition c = new Condition();
    c.setType("AllMembersReady");
    c.setStatus("False");
    c.setReason("NotAllMembersReady");
    c.setMessage("Members not ready: main-0 (restoring: 3 of 40 delta snapshots replayed).");
    s.setConditions(List.of(c));
    etcd.setStatus(s);

    assertThat(EtcdStatusReport.render(etcd))
        .containsPattern("main-0\\s+-\\s+-\\s+NotReady \\(Restoring\\)")
        .contains("AllMembersReady is False (Members not ready: main-0 (restoring: 3 of 40 delta"
            + " snapshots replayed).)");
  }

  @Test
  void showsTheVolumeOperationInProgress() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns").withGeneration(5L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(3);
    EtcdStatus s = new EtcdStatus();
    cloud.gardener.druid.api.v1alpha1.VolumeOperation op =
        new cloud.gardener.druid.api.v1alpha1.VolumeOperation();
    op.setType("Replace");
    op.setPhase("Replacing");
    op.setCurrentMember("main-0");
    op.setCompletedMembers(List.of("main-2"));
    op.setSnapshotRevision(42L);
    s.setVolumeOperation(op);
    etcd.setStatus(s);

    assertThat(EtcdStatusReport.render(etcd)).contains("Volume operation in progress: Replace:"
        + " phase Replacing, member main-0, 1 of 3 members done, full snapshot at revision 42"
        + " (done: main-2)");
  }

  @Test
  void listsTheTasksOfThisEtcdOnly() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns")
        .withGeneration(1L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(3);
    EtcdOpsTask defrag = task("defrag-1", "main", "2026-11-30T06:00:00Z", c -> c.setDefragment(
        new DefragmentConfig()));
    defrag.getStatus().setState("InProgress");
    defrag.getStatus().setStartedAt("2026-11-30T06:00:01Z");
    OpsTaskLastOperation last = new OpsTaskLastOperation();
    last.setDescription("defragmenting main-2");
    defrag.getStatus().setLastOperation(last);
    EtcdOpsTask rejected = task("snap-1", "main", "2026-11-30T05:00:00Z",
        c -> c.setOnDemandSnapshot(new OnDemandSnapshotConfig()));
    rejected.getStatus().setState("Rejected");
    LastError error = new LastError();
    error.setCode("ERR_ETCD_NOT_READY");
    error.setDescription("spec.etcdName: main is not ready");
    rejected.getStatus().setLastErrors(List.of(error));
    EtcdOpsTask other = task("defrag-other", "events", "2026-11-30T06:00:00Z",
        c -> c.setDefragment(new DefragmentConfig()));

    String text = EtcdStatusReport.render(etcd, List.of(defrag, other, rejected));

    assertThat(text).containsPattern("TASK\\s+OPERATION\\s+STATE\\s+STARTED\\s+LAST")
        .containsPattern("snap-1\\s+onDemandSnapshot\\s+Rejected\\s+-\\s+ERR_ETCD_NOT_READY: "
            + "spec.etcdName: main is not ready")
        .containsPattern("defrag-1\\s+defragment\\s+InProgress\\s+2026-11-30T06:00:01Z\\s+"
            + "defragmenting main-2")
        .doesNotContain("defrag-other");
    assertThat(text.indexOf("snap-1")).as("oldest first").isLessThan(text.indexOf("defrag-1"));
    assertThat(EtcdStatusReport.render(etcd, List.of(other))).doesNotContain("TASK");
  }

  private static EtcdOpsTask task(String name, String etcdName, String created,
      Consumer<EtcdOpsTaskConfig> config) {
    EtcdOpsTask task = new EtcdOpsTask();
    task.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns")
        .withCreationTimestamp(created).build());
    EtcdOpsTaskSpec spec = new EtcdOpsTaskSpec();
    spec.setEtcdName(etcdName);
    EtcdOpsTaskConfig c = new EtcdOpsTaskConfig();
    config.accept(c);
    spec.setConfig(c);
    task.setSpec(spec);
    task.setStatus(new EtcdOpsTaskStatus());
    return task;
  }
}
