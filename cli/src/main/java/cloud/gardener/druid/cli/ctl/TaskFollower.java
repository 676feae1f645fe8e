package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.GoDurationConverter;
import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * Follows an EtcdOpsTask until it ends: reads it and its Etcd twice a second and prints each
 * change of {@link TaskProgress#line}; the exit code says how it ended.
 */
final class TaskFollower {

  private static final long POLL_MILLIS = 500;

  private final KubernetesClient client;
  private final String namespace;
  private final PrintWriter out;
  private final PrintWriter err;

  TaskFollower(KubernetesClient client, String namespace, PrintWriter out, PrintWriter err) {
    this.client = client;
    this.namespace = namespace;
    this.out = out;
    this.err = err;
  }

  int follow(String taskName, String etcdName, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = null;
    while (true) {
      EtcdOpsTask task = client.resources(EtcdOpsTask.class).inNamespace(namespace)
          .withName(taskName).get();
      if (task == null) {
        throw new UserError("etcdopstask " + namespace + "/" + taskName + " is gone",
            ExitCodes.NOT_FOUND);
      }
      Etcd etcd = client.resources(Etcd.class).inNamespace(namespace).withName(etcdName).get();
      String line = TaskProgress.line(task, etcd);
      if (!line.equals(last)) {
        out.println(line);
        out.flush();
        last = line;
      }
      EtcdOpsTaskStatus status = task.getStatus();
      if (status != null && status.isFinished()) {
        return EtcdOpsTaskStatus.STATE_SUCCEEDED.equals(status.getState()) ? ExitCodes.OK
            : ExitCodes.TASK_FAILED;
      }
      if (System.nanoTime() > deadline) {
        err.println("timed out after " + GoDurationConverter.format(timeout) + " following"
            + " etcdopstask " + namespace + "/" + taskName + " (it goes on): " + line);
        return ExitCodes.TIMEOUT;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ExitCodes.ERROR;
      }
    }
  }
}
