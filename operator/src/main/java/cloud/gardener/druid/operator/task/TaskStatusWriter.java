package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.operator.status.StatusWriter;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The only writer of EtcdOpsTask status: replaces the whole status in one update guarded by
 * the resource version it was decided from, and skips writes that change nothing. On a
 * conflict it re-reads the task; if only metadata changed (e.g. the finalizer was added) it
 * writes again, but if the status changed meanwhile the decision is stale and it throws, so
 * that the reconcile starts over from the new status.
 */
final class TaskStatusWriter {

  /** The status changed between the read a decision was made from and its write. */
  static final class StaleStatusException extends RuntimeException {
    StaleStatusException(String task) {
      super("the status of EtcdOpsTask " + task + " changed meanwhile");
    }
  }

  private static final int ATTEMPTS = 3;

  private final KubernetesClient client;

  TaskStatusWriter(KubernetesClient client) {
    this.client = client;
  }

  /** Writes {@code next} unless it equals the current status; returns the task as written. */
  EtcdOpsTask write(EtcdOpsTask current, EtcdOpsTaskStatus next) {
    if (StatusWriter.same(current.getStatus(), next)) {
      return current;
    }
    EtcdOpsTask target = current;
    for (int attempt = 1; ; attempt++) {
      EtcdOpsTask copy = Serialization.clone(target);
      copy.setStatus(next);
      try {
        return client.resource(copy).updateStatus();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == ATTEMPTS) {
          throw e;
        }
        EtcdOpsTask fresh = client.resources(EtcdOpsTask.class)
            .inNamespace(current.getMetadata().getNamespace())
            .withName(current.getMetadata().getName()).get();
        if (fresh == null || !StatusWriter.same(fresh.getStatus(), current.getStatus())) {
          throw new StaleStatusException(current.getMetadata().getName());
        }
        target = fresh;
      }
    }
  }
}
