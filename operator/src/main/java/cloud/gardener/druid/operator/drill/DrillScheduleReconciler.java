package cloud.gardener.druid.operator.drill;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.operator.model.BackupDrillJobBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
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
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduled restore drills (addition): for each Etcd with a store and
 * {@code spec.backup.verification.enabled} not false, starts the drill Job
 * ({@link DrillJobs}) when {@code spec.backup.verification.schedule} (default daily) comes
 * after the last drill (its report, else its Job, else the Etcd's creation); sleeps until
 * then. Also takes every new report into {@link DrillMetrics}. Writes nothing on the Etcd:
 * BackupVerified follows from the report in the Etcd reconciler's observation.
 */
@ControllerConfiguration(name = "etcd-backup-drills")
public final class DrillScheduleReconciler implements Reconciler<Etcd> {

  private static final Logger LOG = LoggerFactory.getLogger(DrillScheduleReconciler.class);
  static final Duration POLL = Duration.ofMinutes(1);
  static final Duration DEADLINE = Duration.ofHours(1);

  private final DrillJobs drills;
  private final DrillMetrics metrics;

  public DrillScheduleReconciler(DrillJobs drills, DrillMetrics metrics) {
    this.drills = drills;
    this.metrics = metrics;
  }

  @Override
  public UpdateControl<Etcd> reconcile(Etcd etcd, Context<Etcd> context) {
    if (etcd.getMetadata().getDeletionTimestamp() != null) {
      return UpdateControl.noUpdate();
    }
    String namespace = etcd.getMetadata().getNamespace();
    try {
      Optional<DrillReport> report = drills.report(etcd);
      report.ifPresent(r -> metrics.report(namespace, etcd.getMetadata().getName(), r));
      if (!BackupDrillJobBuilder.scheduled(etcd)) {
        return UpdateControl.noUpdate();
      }
      Instant due = due(etcd, report);
      Instant now = drills.now();
      if (now.isBefore(due)) {
        return UpdateControl.<Etcd>noUpdate().rescheduleAfter(Duration.between(now, due));
      }
      if (drills.state(etcd) != DrillJobs.State.RUNNING && drills.start(etcd, DEADLINE)) {
        LOG.info("Etcd {}/{}: scheduled restore drill started (due {})", namespace,
            etcd.getMetadata().getName(), due);
      }
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(POLL);
    } catch (KubernetesClientException e) {
      LOG.warn("restore drills of Etcd {}/{}: {}", namespace, etcd.getMetadata().getName(),
          e.getMessage());
      return UpdateControl.<Etcd>noUpdate().rescheduleAfter(POLL);
    }
  }

  private Instant due(Etcd etcd, Optional<DrillReport> report) {
    return due(BackupDrillJobBuilder.schedule(etcd),
        report.map(DrillReport::finishedAt).map(Instant::parse), drills.jobCreated(etcd),
        Instant.parse(etcd.getMetadata().getCreationTimestamp()));
  }

  /**
   * The schedule's next time after the later of the last report and the last Job (one that
   * ended without a report is not retried at once), else after the Etcd's creation.
   */
  static Instant due(String schedule, Optional<Instant> lastReport, Optional<Instant> lastJob,
      Instant created) {
    Instant last = lastReport.isPresent() && lastJob.isPresent()
        ? (lastReport.get().isAfter(lastJob.get()) ? lastReport.get() : lastJob.get())
        : lastReport.or(() -> lastJob).orElse(created);
    return CronSchedule.parse(schedule).nextAfter(last.atZone(ZoneOffset.UTC)).toInstant();
  }

  @Override
  public List<EventSource<?, Etcd>> prepareEventSources(EventSourceContext<Etcd> context) {
    InformerEventSource<Lease, Etcd> reports = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Lease.class, Etcd.class)
            .withName("backup-drill-reports")
            .withLabelSelector(Labels.MANAGED_BY + "=" + Labels.MANAGED_BY_VALUE)
            .withGenericFilter(l -> l.getMetadata().getName().endsWith("-backup-verification"))
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Etcd.class))
            .build(), context);
    return List.of(reports);
  }
}
