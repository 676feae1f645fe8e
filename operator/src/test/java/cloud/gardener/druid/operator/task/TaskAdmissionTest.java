package cloud.gardener.druid.operator.task;

import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_IN_PROGRESS;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_REJECTED;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig.Source;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.task.TaskAdmission.Admit;
import cloud.gardener.druid.operator.task.TaskAdmission.Decision;
import cloud.gardener.druid.operator.task.TaskAdmission.Reject;
import cloud.gardener.druid.operator.task.TaskAdmission.Wait;
import cloud.gardener.druid.operator.testing.Etcds;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskAdmissionTest {

  static final String T0 = "2026-01-01T00:00:00Z";
  static final String T1 = "2026-01-01T00:00:01Z";

  final Etcd main = Etcds.etcd("main", 3);

  @Test
  void admitsASnapshotOfAnEtcdWithABackupStore() {
    EtcdOpsTask task = Tasks.snapshot("snap", "main", T0);
    assertThat(TaskAdmission.decide(task, Optional.of(main), List.of(task)))
        .isEqualTo(new Admit(TaskKind.ON_DEMAND_SNAPSHOT));
  }

  @Test
  void rejectsATaskForAnEtcdThatDoesNotExistNamingTheField() {
    EtcdOpsTask task = Tasks.snapshot("snap", "missing", T0);
    TaskError error = onlyError(TaskAdmission.decide(task, Optional.empty(), List.of(task)));
    assertThat(error.code()).isEqualTo(TaskError.ETCD_NOT_FOUND);
    assertThat(error.description()).startsWith("spec.etcdName:").contains("\"missing\"", "\"ns\"");
  }

  @Test
  void rejectsATaskWithoutExactlyOneOperation() {
    EtcdOpsTask none = Tasks.task("none", "main", T0, c -> { });
    EtcdOpsTask two = Tasks.task("two", "main", T0, c -> {
      c.setDefragment(new DefragmentConfig());
      c.setOnDemandSnapshot(new OnDemandSnapshotConfig());
    });
    for (EtcdOpsTask task : List.of(none, two)) {
      TaskError error = onlyError(TaskAdmission.decide(task, Optional.of(main), List.of()));
      assertThat(error.code()).isEqualTo(TaskError.INVALID_CONFIG);
      assertThat(error.description()).startsWith("spec.config:");
    }
  }

  @Test
  void rejectsReplacingAMemberThatIsNotBelowSpecReplicas() {
    for (String bad : new String[] {"main-3", "main-x", "other-0", "main--1", "main-01", ""}) {
      EtcdOpsTask task = Tasks.replace("r", "main", bad);
      TaskError error = onlyError(TaskAdmission.decide(task, Optional.of(main), List.of(task)));
      assertThat(error.code()).as(bad).isEqualTo(TaskError.INVALID_MEMBER_NAME);
      assertThat(error.description()).as(bad)
          .startsWith("spec.config.replaceMemberVolume.memberName:")
          .contains("main-0, main-1, main-2");
    }
  }

  @Test
  void admitsReplacingAMemberWithoutStoreWhenOthersCanResyncIt() {
    main.getSpec().setBackup(null);
    EtcdOpsTask task = Tasks.replace("r", "main", "main-2");
    assertThat(TaskAdmission.decide(task, Optional.of(main), List.of(task)))
        .isEqualTo(new Admit(TaskKind.REPLACE_MEMBER_VOLUME));
  }

  @Test
  void rejectsOperationsThatNeedABackupStoreOnAnEtcdWithoutOne() {
    Etcd single = Etcds.etcd("single", 1);
    single.getSpec().setBackup(null);
    main.getSpec().setBackup(null);
    assertThat(onlyError(TaskAdmission.decide(Tasks.snapshot("s", "main", T0),
        Optional.of(main), List.of())).code()).isEqualTo(TaskError.BACKUP_NOT_ENABLED);
    assertThat(onlyError(TaskAdmission.decide(Tasks.replace("r", "single", "single-0"),
        Optional.of(single), List.of())).code()).isEqualTo(TaskError.BACKUP_NOT_ENABLED);
    TaskError store = onlyError(TaskAdmission.decide(
        Tasks.recover("q", "main", Source.STORE, null), Optional.of(main), List.of()));
    assertThat(store.code()).isEqualTo(TaskError.BACKUP_NOT_ENABLED);
    assertThat(store.description()).startsWith("spec.config.recoverFromQuorumLoss.source:");
    assertThat(onlyError(TaskAdmission.decide(Tasks.recover("q", "main", Source.AUTO, null),
        Optional.of(main), List.of())).code()).isEqualTo(TaskError.BACKUP_NOT_ENABLED);
  }

  @Test
  void recoveryFromASurvivingMembersDataIsRejectedAsNotSupported() {
    TaskError error = onlyError(TaskAdmission.decide(
        Tasks.recover("q", "main", Source.MEMBER, "main-1"), Optional.of(main), List.of()));
    assertThat(error.description()).startsWith("spec.config.recoverFromQuorumLoss.source:")
        .contains("not supported");
    assertThat(TaskAdmission.decide(Tasks.recover("q", "main", Source.AUTO, null),
        Optional.of(main), List.of())).isInstanceOf(Admit.class);
  }

  @Test
  void rejectsSnapshotsAndDefragmentationOfAHibernatedEtcd() {
    main.getSpec().setReplicas(0);
    assertThat(onlyError(TaskAdmission.decide(Tasks.defragment("d", "main", T0),
        Optional.of(main), List.of())).code()).isEqualTo(TaskError.ETCD_HIBERNATED);
    assertThat(onlyError(TaskAdmission.decide(Tasks.snapshot("s", "main", T0),
        Optional.of(main), List.of())).code()).isEqualTo(TaskError.ETCD_HIBERNATED);
  }

  @Test
  void aLaterTaskWaitsWhileAnEarlierOneOfTheSameEtcdIsUnfinished() {
    EtcdOpsTask first = Tasks.withState(Tasks.defragment("a", "main", T0), STATE_IN_PROGRESS, T0);
    EtcdOpsTask second = Tasks.snapshot("b", "main", T1);
    Decision d = TaskAdmission.decide(second, Optional.of(main), List.of(first, second));
    assertThat(d).isInstanceOf(Wait.class);
    assertThat(((Wait) d).reason()).contains("EtcdOpsTask a", "InProgress");
  }

  @Test
  void ofTwoPendingTasksOnlyTheOlderIsAdmittedAndTheNameBreaksTies() {
    EtcdOpsTask older = Tasks.snapshot("z", "main", T0);
    EtcdOpsTask newer = Tasks.snapshot("a", "main", T1);
    EtcdOpsTask sameSecond = Tasks.snapshot("y", "main", T0);
    List<EtcdOpsTask> all = List.of(newer, older, sameSecond);
    assertThat(TaskAdmission.decide(sameSecond, Optional.of(main), all)).isInstanceOf(Admit.class);
    assertThat(TaskAdmission.decide(older, Optional.of(main), all)).isInstanceOf(Wait.class);
    assertThat(TaskAdmission.decide(newer, Optional.of(main), all)).isInstanceOf(Wait.class);
  }

  @Test
  void finishedTasksAndTasksOfOtherEtcdsDoNotBlock() {
    EtcdOpsTask done = Tasks.withState(Tasks.defragment("a", "main", T0), STATE_SUCCEEDED, T0);
    EtcdOpsTask rejected = Tasks.withState(Tasks.defragment("b", "main", T0), STATE_REJECTED, T0);
    EtcdOpsTask other = Tasks.withState(Tasks.defragment("c", "other", T0), STATE_IN_PROGRESS, T0);
    EtcdOpsTask task = Tasks.snapshot("d", "main", T1);
    assertThat(TaskAdmission.decide(task, Optional.of(main), List.of(done, rejected, other, task)))
        .isInstanceOf(Admit.class);
  }

  @Test
  void anInvalidTaskIsRejectedEvenWhileAnotherRuns() {
    EtcdOpsTask first = Tasks.withState(Tasks.defragment("a", "main", T0), STATE_IN_PROGRESS, T0);
    EtcdOpsTask bad = Tasks.replace("b", "main", "main-9");
    assertThat(TaskAdmission.decide(bad, Optional.of(main), List.of(first, bad)))
        .isInstanceOf(Reject.class);
  }

  @Test
  void volumeTasksAndDefragmentationWaitForAVolumeChangeOfTheEtcdButSnapshotsDoNot() {
    VolumeOperation vo = new VolumeOperation();
    vo.setType(VolumeOperation.TYPE_REPLACE);
    vo.setPhase(VolumeOperation.PHASE_REPLACING);
    main.setStatus(new EtcdStatus());
    main.getStatus().setVolumeOperation(vo);
    assertThat(TaskAdmission.decide(Tasks.replace("r", "main", "main-1"), Optional.of(main),
        List.of())).isInstanceOf(Wait.class);
    assertThat(TaskAdmission.decide(Tasks.defragment("d", "main", T0), Optional.of(main),
        List.of())).isInstanceOf(Wait.class);
    assertThat(TaskAdmission.decide(Tasks.snapshot("s", "main", T0), Optional.of(main),
        List.of())).isInstanceOf(Admit.class);
    vo.setPhase(VolumeOperation.PHASE_COMPLETED);
    assertThat(TaskAdmission.decide(Tasks.replace("r", "main", "main-1"), Optional.of(main),
        List.of())).isInstanceOf(Admit.class);
  }

  @Test
  void rejectsATaskForAnEtcdBeingDeleted() {
    main.getMetadata().setDeletionTimestamp(T0);
    assertThat(onlyError(TaskAdmission.decide(Tasks.snapshot("s", "main", T0), Optional.of(main),
        List.of())).code()).isEqualTo(TaskError.ETCD_DELETING);
  }

  @Test
  void timeTravelNeedsAStoreAndAnUndeleteARunningEtcdWhileARestoreReadsOnlyTheStore() {
    EtcdOpsTask restore = Tasks.task("r", "main", T0, c -> {
      var r = new cloud.gardener.druid.api.v1alpha1.RestoreIntoConfig();
      r.setEtcdName("copy");
      r.setRevision(5L);
      c.setRestoreInto(r);
    });
    EtcdOpsTask undelete = Tasks.task("u", "main", T0, c -> {
      var u = new cloud.gardener.druid.api.v1alpha1.UndeleteConfig();
      u.setPrefix("/a/");
      u.setRevision(5L);
      c.setUndelete(u);
    });
    assertThat(TaskAdmission.decide(restore, Optional.of(main), List.of()))
        .isEqualTo(new Admit(TaskKind.RESTORE_INTO));
    assertThat(TaskAdmission.decide(undelete, Optional.of(main), List.of()))
        .isEqualTo(new Admit(TaskKind.UNDELETE));

    main.getSpec().setReplicas(0);
    assertThat(TaskAdmission.decide(restore, Optional.of(main), List.of()))
        .as("a hibernated Etcd's history is restorable").isInstanceOf(Admit.class);
    assertThat(onlyError(TaskAdmission.decide(undelete, Optional.of(main), List.of())).code())
        .isEqualTo(TaskError.ETCD_HIBERNATED);

    main.getSpec().setReplicas(3);
    main.getSpec().setBackup(null);
    TaskError noStore = onlyError(TaskAdmission.decide(restore, Optional.of(main), List.of()));
    assertThat(noStore.code()).isEqualTo(TaskError.BACKUP_NOT_ENABLED);
    assertThat(noStore.description()).startsWith("spec.config.restoreInto:");
    assertThat(onlyError(TaskAdmission.decide(undelete, Optional.of(main), List.of())).code())
        .isEqualTo(TaskError.BACKUP_NOT_ENABLED);
  }

  private static TaskError onlyError(Decision d) {
    assertThat(d).isInstanceOf(Reject.class);
    List<TaskError> errors = ((Reject) d).errors();
    assertThat(errors).hasSize(1);
    return errors.get(0);
  }
}
