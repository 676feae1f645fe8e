package cloud.gardener.druid.operator.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.operator.compaction.CompactionDecision.JobState;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Upstream's reasons and messages of {@code LastSnapshotCompactionSucceeded}. */
class CompactionConditionTest {

  @Test
  void aSucceededJobIsTrueWithReasonNone() {
    Condition c = CompactionCondition.ofJob("ns", "etcd-main-compactor",
        new JobState.Finished(true, Duration.ofSeconds(30), "CompletionsReached"),
        Optional.empty());
    assertThat(c.getType()).isEqualTo("LastSnapshotCompactionSucceeded");
    assertThat(c.getStatus()).isEqualTo("True");
    assertThat(c.getReason()).isEqualTo("None");
    assertThat(c.getMessage())
        .isEqualTo("Compaction job ns/etcd-main-compactor completed with state CompletionsReached");
  }

  @Test
  void aFailedJobNamesWhyAndSaysItWillBeRetried() {
    Condition deadline = CompactionCondition.ofJob("ns", "etcd-main-compactor",
        new JobState.Finished(false, Duration.ofMinutes(3), "DeadlineExceeded"),
        Optional.empty());
    assertThat(deadline.getStatus()).isEqualTo("False");
    assertThat(deadline.getReason()).isEqualTo("DeadlineExceeded");
    assertThat(deadline.getMessage()).isEqualTo("Compaction job ns/etcd-main-compactor"
        + " completed with state DeadlineExceeded, Compaction will be retried");

    JobState.Finished backoff = new JobState.Finished(false, Duration.ofMinutes(1),
        "BackoffLimitExceeded");
    assertThat(CompactionCondition.ofJob("ns", "j", backoff, Optional.of(evicted())).getReason())
        .isEqualTo("EvictionByEvictionAPI");
    assertThat(CompactionCondition.ofJob("ns", "j", backoff, Optional.of(exited())).getReason())
        .isEqualTo("ProcessFailure");
    assertThat(CompactionCondition.ofJob("ns", "j", backoff, Optional.empty()).getReason())
        .isEqualTo("Unknown");
  }

  @Test
  void aFullSnapshotTakenInsteadIsRecordedAsUpstreamDoes() {
    assertThat(CompactionCondition.ofFullSnapshot("ns", "etcd-main", Optional.empty()))
        .satisfies(c -> {
          assertThat(c.getStatus()).isEqualTo("True");
          assertThat(c.getReason()).isEqualTo("FullSnapshotTakenSuccessfully");
          assertThat(c.getMessage()).isEqualTo("Full snapshot taken successfully for etcd ns/etcd-main");
        });
    assertThat(CompactionCondition.ofFullSnapshot("ns", "etcd-main", Optional.of("timeout")))
        .satisfies(c -> {
          assertThat(c.getStatus()).isEqualTo("False");
          assertThat(c.getReason()).isEqualTo("ErrorTriggeringFullSnapshot");
          assertThat(c.getMessage()).isEqualTo("Error while triggering full snapshot for etcd"
              + " ns/etcd-main: timeout ,Compaction will be retried");
        });
  }

  private static Pod evicted() {
    return new PodBuilder().withNewStatus().addNewCondition().withType("DisruptionTarget")
        .withStatus("True").withReason("EvictionByEvictionAPI").endCondition().endStatus()
        .build();
  }

  private static Pod exited() {
    return new PodBuilder().withNewStatus().addNewContainerStatus().withNewState()
        .withNewTerminated().withExitCode(1).endTerminated().endState().endContainerStatus()
        .endStatus().build();
  }
}
