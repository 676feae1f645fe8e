package cloud.gardener.druid.operator.task;

import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_IN_PROGRESS;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_PENDING;
import static cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus.STATE_SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.VerifyBackupsConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which tasks hold the capacity flow: in progress, of this Etcd, changing its members. */
class TasksInProgressTest {

  static final String T0 = "2026-01-01T00:00:00Z";
  static final String T1 = "2026-01-01T00:00:10Z";

  @Test
  void namesTheInProgressTasksOfTheEtcdThatChangeItsMembersOldestFirst() {
    EtcdOpsTask defrag = Tasks.withState(Tasks.defragment("defrag", "main", T1),
        STATE_IN_PROGRESS, T1);
    EtcdOpsTask snapshot = Tasks.withState(Tasks.snapshot("snap", "main", T0),
        STATE_IN_PROGRESS, T0);
    EtcdOpsTask pending = Tasks.withState(Tasks.defragment("later", "main", T1),
        STATE_PENDING, null);
    EtcdOpsTask done = Tasks.withState(Tasks.defragment("done", "main", T0), STATE_SUCCEEDED, T0);
    EtcdOpsTask other = Tasks.withState(Tasks.defragment("other", "other", T0),
        STATE_IN_PROGRESS, T0);
    EtcdOpsTask drill = Tasks.withState(Tasks.task("drill", "main", T0,
        c -> c.setVerifyBackups(new VerifyBackupsConfig())), STATE_IN_PROGRESS, T0);
    assertThat(TasksInProgress.named(List.of(defrag, pending, done, other, drill, snapshot),
        "main")).containsExactly("snap (onDemandSnapshot)", "defrag (defragment)");
    assertThat(TasksInProgress.named(List.of(pending, done, other, drill), "main")).isEmpty();
  }
}
