package cloud.gardener.druid.operator.copy;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.operator.model.CopyBackupsJobBuilder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.status.StatusWriter;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an EtcdCopyBackupsTask as a Job ({@link CopyBackupsJobBuilder}) and mirrors the Job's
 * outcome into the task's status ({@link CopyTaskStatus}); the only writer of that status.
 * The Job is created once: a changed task spec does not restart a copy (as upstream), nor does
 * deleting the Job after it ended. Deleting the task deletes the Job and its pod by garbage
 * collection (the task owns them).
 */
@ControllerConfiguration(name = "etcdcopybackupstask")
public final class EtcdCopyBackupsTaskReconciler implements Reconciler<EtcdCopyBackupsTask> {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdCopyBackupsTaskReconciler.class);
  static final Duration RETRY = Duration.ofSeconds(10);
  /** While the Job runs, its progress is read this often (and written when it changed). */
  static final Duration PROGRESS_POLL = Duration.ofSeconds(5);

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final StatusWriter statusWriter;
  private final CopyJobProgress progress;
  private final Clock clock;

  public EtcdCopyBackupsTaskReconciler(KubernetesClient client, OperatorSettings settings) {
    this.client = client;
    this.settings = settings;
    this.statusWriter = new StatusWriter(client);
    this.progress = new CopyJobProgress(client);
    this.clock = Clock.systemUTC();
  }

  @Override
  public UpdateControl<EtcdCopyBackupsTask> reconcile(EtcdCopyBackupsTask task,
      Context<EtcdCopyBackupsTask> context) {
    if (task.getMetadata().getDeletionTimestamp() != null) {
      return UpdateControl.noUpdate();
    }
    try {
      return run(task);
    } catch (StatusWriter.StaleStatusException e) {
      return UpdateControl.<EtcdCopyBackupsTask>noUpdate().rescheduleAfter(StatusWriter.REDECIDE);
    }
  }

  private UpdateControl<EtcdCopyBackupsTask> run(EtcdCopyBackupsTask task) {
    List<String> unsupported = CopyBackupsJobBuilder.unsupported(task.getSpec());
    if (!unsupported.isEmpty()) {
      statusWriter.write(task, CopyTaskStatus.of(task, Optional.empty(), Optional.empty(),
          Optional.of(String.join("; ", unsupported)), clock.instant()));
      return UpdateControl.noUpdate();
    }
    String namespace = task.getMetadata().getNamespace();
    String name = CopyBackupsJobBuilder.jobName(task);
    try {
      Optional<Job> job = Optional.ofNullable(
          client.batch().v1().jobs().inNamespace(namespace).withName(name).get());
      if (job.isEmpty() && CopyTaskStatus.finished(task.getStatus())) {
        // the Job was deleted after it ended: the copy is not run again
        return UpdateControl.noUpdate();
      }
      if (job.isEmpty()) {
        job = Optional.of(create(task));
      }
      boolean ended = CopyTaskStatus.ended(job.get());
      // once ended, the Progressing condition keeps the termination message: read it once
      Optional<String> said = ended && CopyTaskStatus.finished(task.getStatus())
          ? Optional.empty() : progress.of(job.get());
      statusWriter.write(task, CopyTaskStatus.of(task, job, said, Optional.empty(),
          clock.instant()));
      return ended ? UpdateControl.noUpdate()
          : UpdateControl.<EtcdCopyBackupsTask>noUpdate().rescheduleAfter(PROGRESS_POLL);
    } catch (KubernetesClientException e) {
      LOG.warn("EtcdCopyBackupsTask {}/{}: {}", namespace, task.getMetadata().getName(),
          e.getMessage());
      statusWriter.write(task, CopyTaskStatus.of(task, Optional.empty(), Optional.empty(),
          Optional.of("cannot run job " + name + ": " + e.getMessage()), clock.instant()));
      return UpdateControl.<EtcdCopyBackupsTask>noUpdate().rescheduleAfter(RETRY);
    }
  }

  private Job create(EtcdCopyBackupsTask task) {
    Job job = CopyBackupsJobBuilder.build(task, settings);
    try {
      Job created = client.resource(job).create();
      LOG.info("EtcdCopyBackupsTask {}/{}: created job {}", task.getMetadata().getNamespace(),
          task.getMetadata().getName(), job.getMetadata().getName());
      return created;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // created by an earlier reconcile whose answer was lost
      return client.resource(job).get();
    }
  }

  @Override
  public List<EventSource<?, EtcdCopyBackupsTask>> prepareEventSources(
      EventSourceContext<EtcdCopyBackupsTask> context) {
    return List.of(new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Job.class, EtcdCopyBackupsTask.class)
            .withName("copy-jobs")
            .withLabelSelector(Labels.COMPONENT + "=" + CopyBackupsJobBuilder.COMPONENT)
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(EtcdCopyBackupsTask.class))
            .build(), context));
  }
}
