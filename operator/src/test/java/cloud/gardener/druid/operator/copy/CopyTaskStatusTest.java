package cloud.gardener.druid.operator.copy;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTaskStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CopyTaskStatusTest {

  final EtcdCopyBackupsTask task = task(3L);

  @Test
  void aRunningJobGivesNoConditionAndTheObservedGeneration() {
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.of(new JobBuilder()
        .withNewStatus().withActive(1).endStatus().build()), Optional.empty());
    assertThat(status.getObservedGeneration()).isEqualTo(3L);
    assertThat(status.getConditions()).isNull();
    assertThat(status.getLastError()).isNull();
    assertThat(CopyTaskStatus.finished(status)).isFalse();
  }

  @Test
  void aCompleteJobIsSucceededWithItsTimesAndReason() {
    Job job = job("Complete", "True", "CompletionsReached", "Reached expected completions");
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.of(job), Optional.empty());
    assertThat(status.getConditions()).singleElement().satisfies(c -> {
      assertThat(c.getType()).isEqualTo("Succeeded");
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("CompletionsReached");
      assertThat(c.getMessage()).isEqualTo("Reached expected completions");
      assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-30T06:00:00Z");
      assertThat(c.getLastUpdateTime()).isEqualTo("2026-11-30T06:00:01Z");
    });
    assertThat(CopyTaskStatus.finished(status)).isTrue();
  }

  @Test
  void aFailedJobIsFailedAndOtherJobConditionsAreLeftOut() {
    Job job = job("Failed", "True", "BackoffLimitExceeded", "Job has reached the backoff limit");
    job.getStatus().getConditions().add(new JobConditionBuilder().withType("FailureTarget")
        .withStatus("True").build());
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.of(job), Optional.empty());
    assertThat(status.getConditions()).singleElement().satisfies(c -> {
      assertThat(c.getType()).isEqualTo("Failed");
      assertThat(c.getReason()).isEqualTo("BackoffLimitExceeded");
    });
    assertThat(CopyTaskStatus.finished(status)).isTrue();
  }

  @Test
  void withoutAJobTheErrorIsTheStatus() {
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.empty(),
        Optional.of("spec.sourceStore.provider: GCS is not supported"));
    assertThat(status.getConditions()).isNull();
    assertThat(status.getLastError()).isEqualTo("spec.sourceStore.provider: GCS is not supported");
    assertThat(CopyTaskStatus.finished(status)).isFalse();
  }

  static Job job(String type, String status, String reason, String message) {
    return new JobBuilder().withNewStatus().addNewCondition().withType(type).withStatus(status)
        .withReason(reason).withMessage(message).withLastTransitionTime("2026-11-30T06:00:00Z")
        .withLastProbeTime("2026-11-30T06:00:01Z").endCondition().endStatus().build();
  }

  static EtcdCopyBackupsTask task(long generation) {
    EtcdCopyBackupsTask task = new EtcdCopyBackupsTask();
    task.setMetadata(new ObjectMetaBuilder().withName("copy").withNamespace("ns")
        .withGeneration(generation).build());
    return task;
  }
}
