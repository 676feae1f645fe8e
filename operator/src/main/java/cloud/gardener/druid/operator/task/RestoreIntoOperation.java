package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.pitr.TimeTravelReport;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.RestoreIntoConfig;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.model.RestoredEtcdBuilder;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder.Kind;
import cloud.gardener.druid.operator.timetravel.TimeTravelJobs;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Restores an Etcd at a revision or time into a new Etcd (addition, docs/time-travel.md): the
 * restore Job ({@code druid agent restore-to}) writes the new Etcd's first full snapshot into
 * its own, empty store prefix; then the new Etcd is created ({@link RestoredEtcdBuilder}) and
 * the task waits until its rollout is complete. The source is only read.
 */
final class RestoreIntoOperation implements AgentOperation {

  static final int DEFAULT_TIMEOUT = 3600;
  private static final Duration POLL = Duration.ofSeconds(2);

  private final KubernetesClient client;
  private final TimeTravelJobs jobs;
  private final OperatorSettings settings;
  private final EventRecorder events;

  RestoreIntoOperation(KubernetesClient client, TimeTravelJobs jobs, OperatorSettings settings,
      EventRecorder events) {
    this.client = client;
    this.jobs = jobs;
    this.settings = settings;
    this.events = events;
  }

  @Override
  public Duration timeout(EtcdOpsTask task, Etcd etcd) {
    RestoreIntoConfig c = task.getSpec().getConfig().getRestoreInto();
    return Duration.ofSeconds(c.getTimeoutSeconds() != null ? c.getTimeoutSeconds()
        : DEFAULT_TIMEOUT);
  }

  @Override
  public String run(EtcdOpsTask task, Etcd etcd, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException {
    RestoreIntoConfig c = task.getSpec().getConfig().getRestoreInto();
    String ns = etcd.getMetadata().getNamespace();
    String prefix = TimeTravelJobBuilder.targetPrefix(etcd, c);
    if (client.resources(Etcd.class).inNamespace(ns).withName(c.getEtcdName()).get() != null) {
      throw new TaskFailure(TaskError.ETCD_EXISTS, "spec.config.restoreInto.etcdName: Etcd \""
          + c.getEtcdName() + "\" already exists in namespace \"" + ns + "\"");
    }
    if (prefix.equals(etcd.getSpec().getBackup().getStore().getPrefix())) {
      throw new TaskFailure(TaskError.INVALID_CONFIG, "spec.config.restoreInto.storePrefix: \""
          + prefix + "\" is the source's own store prefix");
    }
    TimeTravelReport r = TimeTravelRun.toEnd(jobs, etcd, Kind.RESTORE_INTO,
        TimeTravelJobBuilder.restoreInto(etcd, c, settings, deadline.left()), deadline,
        progress);
    client.resource(RestoredEtcdBuilder.build(etcd, c.getEtcdName(), prefix, r.revision()))
        .create();
    events.normal(etcd, "RestoredInto", "EtcdOpsTask " + task.getMetadata().getName() + ": "
        + r.message() + "; created Etcd " + c.getEtcdName());
    progress.accept(r.message() + "; created Etcd " + c.getEtcdName()
        + ", waiting for its members");
    awaitReady(ns, c.getEtcdName(), deadline, progress);
    return "restored revision " + r.revision() + " of Etcd " + etcd.getMetadata().getName()
        + " into the new Etcd " + c.getEtcdName() + " (store prefix " + prefix + ", revision "
        + r.restoredRevision() + ")";
  }

  private void awaitReady(String ns, String name, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException {
    while (true) {
      Etcd created = client.resources(Etcd.class).inNamespace(ns).withName(name).get();
      if (created == null) {
        throw new TaskFailure(TaskError.TIME_TRAVEL, "the new Etcd " + name + " was deleted");
      }
      List<String> pending = RolloutCompletion.pendingReasons(created);
      if (pending.isEmpty()) {
        return;
      }
      progress.accept("Etcd " + name + " created; waiting: " + String.join("; ", pending));
      deadline.pause(POLL, "for the new Etcd " + name + " to be ready");
    }
  }
}
