package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.operator.observe.RunningTasks;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.stream.Stream;

/** The EtcdOpsTasks in progress that change an Etcd's members (see {@link RunningTasks}). */
public final class TasksInProgress {

  private TasksInProgress() {
  }

  /** Reads the Etcd's namespace's tasks from the API server on each call. */
  public static RunningTasks source(KubernetesClient client) {
    return etcd -> named(client.resources(EtcdOpsTask.class)
        .inNamespace(etcd.getMetadata().getNamespace()).list().getItems(),
        etcd.getMetadata().getName());
  }

  static List<String> named(List<EtcdOpsTask> tasks, String etcdName) {
    return of(tasks, etcdName)
        .filter(t -> TaskKind.single(t).map(TaskKind::changesMembers).orElse(false))
        .sorted(TaskAdmission.ORDER)
        .map(t -> t.getMetadata().getName() + " (" + TaskKind.single(t).orElseThrow().field()
            + ")")
        .toList();
  }

  /** The tasks of Etcd {@code etcdName} among {@code tasks} that are in progress. */
  static Stream<EtcdOpsTask> of(List<EtcdOpsTask> tasks, String etcdName) {
    return tasks.stream()
        .filter(t -> t.getSpec() != null && etcdName.equals(t.getSpec().getEtcdName()))
        .filter(t -> t.getStatus() != null
            && EtcdOpsTaskStatus.STATE_IN_PROGRESS.equals(t.getStatus().getState()));
  }
}
