package cloud.gardener.druid.operator.task;

import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_IN_PROGRESS;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastError;
import cloud.gardener.druid.api.v1alpha1.RecoverFromQuorumLossConfig.Source;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.task.VolumeHandshake.Outcome;
import cloud.gardener.druid.operator.observe.VolumeTask;
import cloud.gardener.druid.operator.testing.Etcds;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The replace/recover handshake between the task controller and the Etcd reconciler. */
class VolumeHandshakeTest {

  static final String STARTED = "2026-01-01T00:00:10Z";

  final Etcd etcd = Etcds.etcd("main", 3);
  final EtcdOpsTask task = Tasks.withState(Tasks.replace("fix-1", "main", "main-1"),
      STATE_IN_PROGRESS, STARTED);

  @Test
  void theEtcdReconcilerFindsTheInProgressVolumeTaskOfItsEtcdOnly() {
    EtcdOpsTask pending = Tasks.withState(Tasks.replace("later", "main", "main-2"),
        STATE_PENDING, null);
    EtcdOpsTask otherEtcd = Tasks.withState(Tasks.replace("x", "other", "other-1"),
        STATE_IN_PROGRESS, STARTED);
    EtcdOpsTask snapshot = Tasks.withState(Tasks.snapshot("snap", "main", STARTED),
        STATE_IN_PROGRESS, STARTED);
    assertThat(VolumeHandshake.inProgress(List.of(pending, otherEtcd, snapshot, task), "main"))
        .contains(new VolumeTask("fix-1", VolumeOperation.Kind.REPLACE_MEMBER_VOLUME,
            Optional.of("main-1")));
    assertThat(VolumeHandshake.inProgress(List.of(pending, snapshot), "main")).isEmpty();
  }

  @Test
  void theEtcdReconcilersSourceGetsTheMemberOfAReplacementOnly() {
    var replace = VolumeHandshake.of(task);
    assertThat(replace.member()).contains("main-1");
    EtcdOpsTask recover = Tasks.withState(Tasks.recover("q", "main", Source.MEMBER, "main-0"),
        STATE_IN_PROGRESS, STARTED);
    assertThat(VolumeHandshake.of(recover).member()).isEmpty();
  }

  @Test
  void aRecoveryTaskCarriesItsSourceDefaultingToAuto() {
    EtcdOpsTask recover = Tasks.withState(Tasks.recover("q", "main", null, null),
        STATE_IN_PROGRESS, STARTED);
    assertThat(VolumeHandshake.inProgress(List.of(recover), "main")).contains(new VolumeTask("q",
        VolumeOperation.Kind.RECOVER_FROM_QUORUM_LOSS, Optional.empty()));
  }

  @Test
  void theTaskWaitsUntilTheEtcdRecordsItsOperationAsCompleted() {
    assertThat(VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd)))
        .as("not picked up yet").isEmpty();
    VolumeOperation vo = volumeOperation("fix-1", VolumeOperation.PHASE_REPLACING);
    assertThat(VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd)))
        .as("in progress").isEmpty();
    vo.setPhase(VolumeOperation.PHASE_COMPLETED);
    Optional<Outcome> outcome =
        VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd));
    assertThat(outcome).hasValueSatisfying(o -> {
      assertThat(o.succeeded()).isTrue();
      assertThat(o.description()).contains("ReplaceMemberVolume", "main-1");
    });
  }

  @Test
  void aFailedOperationFailsTheTaskWithTheEtcdsErrors() {
    volumeOperation("fix-1", VolumeOperation.PHASE_FAILED);
    LastError e = new LastError();
    e.setCode("ERR_REPLACE_VOLUME");
    e.setDescription("member main-1 did not rejoin within 10m");
    etcd.getStatus().setLastErrors(List.of(e));
    Outcome o = VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd))
        .orElseThrow();
    assertThat(o.succeeded()).isFalse();
    assertThat(o.errors()).containsExactly(
        new TaskError("ERR_REPLACE_VOLUME", "member main-1 did not rejoin within 10m"));
    etcd.getStatus().setLastErrors(null);
    assertThat(VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd))
        .orElseThrow().errors()).extracting(TaskError::code)
        .containsExactly(TaskError.VOLUME_OPERATION_FAILED);
  }

  @Test
  void anOperationOfAnotherTaskOrAnEarlierTaskOfTheSameNameIsNotThisTasks() {
    volumeOperation("other", VolumeOperation.PHASE_COMPLETED);
    assertThat(VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd)))
        .isEmpty();
    VolumeOperation stale = volumeOperation("fix-1", VolumeOperation.PHASE_COMPLETED);
    stale.setStartedAt("2026-01-01T00:00:09Z");
    assertThat(VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd)))
        .isEmpty();
    stale.setStartedAt(STARTED);
    assertThat(VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd)))
        .isPresent();
    stale.setType(VolumeOperation.TYPE_RECOVER_FROM_QUORUM_LOSS);
    assertThat(VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.of(etcd)))
        .as("another type").isEmpty();
  }

  @Test
  void theTaskFailsWhenItsEtcdIsDeleted() {
    Outcome o = VolumeHandshake.outcome(task, TaskKind.REPLACE_MEMBER_VOLUME, Optional.empty())
        .orElseThrow();
    assertThat(o.succeeded()).isFalse();
    assertThat(o.errors()).extracting(TaskError::code).containsExactly(TaskError.ETCD_NOT_FOUND);
  }

  private VolumeOperation volumeOperation(String taskName, String phase) {
    VolumeOperation vo = new VolumeOperation();
    vo.setType(VolumeOperation.TYPE_REPLACE_MEMBER_VOLUME);
    vo.setTask(taskName);
    vo.setPhase(phase);
    vo.setCurrentMember("main-1");
    if (etcd.getStatus() == null) {
      etcd.setStatus(new EtcdStatus());
    }
    etcd.getStatus().setVolumeOperation(vo);
    return vo;
  }
}
