package cloud.gardener.druid.operator.copy;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTaskStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import cloud.gardener.druid.operator.status.StatusWriter;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CopyTaskStatusTest {

  final EtcdCopyBackupsTask task = task(3L);

  static final Instant NOW = Instant.parse("2026-12-01T21:00:00Z");

  @Test
  void aRunningJobIsProgressingWithTheCopysLastProgressLine() {
    Job running = new JobBuilder().withNewStatus().withActive(1).endStatus().build();
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.of(running),
        Optional.of("3 of 10 snapshots copied (12.0 MiB)"), Optional.empty(), NOW);
    assertThat(status.getObservedGeneration()).isEqualTo(3L);
    assertThat(status.getConditions()).singleElement().satisfies(c -> {
      assertThat(c.getType()).isEqualTo("Progressing");
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("Copying");
      assertThat(c.getMessage()).isEqualTo("3 of 10 snapshots copied (12.0 MiB)");
      assertThat(c.getLastUpdateTime()).isEqualTo(NOW.toString());
    });
    assertThat(status.getLastError()).isNull();
    assertThat(CopyTaskStatus.finished(status)).isFalse();

    task.setStatus(status);
    EtcdCopyBackupsTaskStatus same = CopyTaskStatus.of(task, Optional.of(running),
        Optional.of("3 of 10 snapshots copied (12.0 MiB)"), Optional.empty(), NOW.plusSeconds(5));
    assertThat(StatusWriter.same(status, same)).as("no progress, no write").isTrue();
    EtcdCopyBackupsTaskStatus further = CopyTaskStatus.of(task, Optional.of(running),
        Optional.of("4 of 10 snapshots copied (16.0 MiB)"), Optional.empty(), NOW.plusSeconds(5));
    assertThat(further.getConditions().get(0).getLastTransitionTime()).isEqualTo(NOW.toString());
    assertThat(further.getConditions().get(0).getLastUpdateTime())
        .isEqualTo(NOW.plusSeconds(5).toString());
  }

  @Test
  void anEndedJobKeepsItsTerminationMessageAsTheFinishedProgress() {
    Job job = job("Complete", "True", "CompletionsReached", "Reached expected completions");
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.of(job),
        Optional.of("copied 3 snapshot(s) (6000 bytes), skipped 0 already in the target"),
        Optional.empty(), NOW);
    assertThat(status.getConditions()).extracting(c -> c.getType() + "=" + c.getStatus()
        + " " + c.getMessage()).containsExactly(
            "Succeeded=True Reached expected completions",
            "Progressing=False copied 3 snapshot(s) (6000 bytes), skipped 0 already in the target");
    task.setStatus(status);
    assertThat(StatusWriter.same(status, CopyTaskStatus.of(task, Optional.of(job),
        Optional.empty(), Optional.empty(), NOW.plusSeconds(60))))
        .as("not read again, kept").isTrue();
  }

  @Test
  void anEndedJobWithoutATerminationMessageSaysSo() {
    Job job = job("Complete", "True", "CompletionsReached", "Reached expected completions");
    assertThat(CopyTaskStatus.of(task, Optional.of(job), Optional.empty(), Optional.empty(), NOW)
        .getConditions()).extracting(c -> c.getType() + "=" + c.getStatus() + " " + c.getMessage())
        .contains("Progressing=False " + CopyTaskStatus.NO_LAST_WORD);
  }

  @Test
  void aCompleteJobIsSucceededWithItsTimesAndReason() {
    Job job = job("Complete", "True", "CompletionsReached", "Reached expected completions");
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.of(job), Optional.empty(),
        Optional.empty(), NOW);
    assertThat(status.getConditions()).first().satisfies(c -> {
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
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.of(job), Optional.empty(),
        Optional.empty(), NOW);
    assertThat(status.getConditions()).first().satisfies(c -> {
      assertThat(c.getType()).isEqualTo("Failed");
      assertThat(c.getReason()).isEqualTo("BackoffLimitExceeded");
    });
    assertThat(CopyTaskStatus.finished(status)).isTrue();
  }

  @Test
  void withoutAJobTheErrorIsTheStatus() {
    EtcdCopyBackupsTaskStatus status = CopyTaskStatus.of(task, Optional.empty(),
        Optional.empty(), Optional.of("spec.sourceStore.provider: GCS is not supported"), NOW);
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
