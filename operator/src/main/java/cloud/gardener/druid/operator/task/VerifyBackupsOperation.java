package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.VerifyBackupsConfig;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.operator.drill.DrillJobs;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.model.BackupDrillJobBuilder;
import cloud.gardener.druid.operator.status.BackupVerification;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs a restore drill now (addition): starts the Etcd's drill Job (after the one still
 * running, if any), waits for its report in the verification lease, and ends as the report
 * says: succeeded when the backups were verified (or nothing could be proven), failed naming
 * the object and why. The Etcd's BackupVerified condition follows from the same report.
 */
final class VerifyBackupsOperation implements AgentOperation {

  static final int DEFAULT_TIMEOUT = 1800;
  private static final Duration POLL = Duration.ofSeconds(2);

  private final DrillJobs drills;
  private final EventRecorder events;

  VerifyBackupsOperation(DrillJobs drills, EventRecorder events) {
    this.drills = drills;
    this.events = events;
  }

  @Override
  public Duration timeout(EtcdOpsTask task, Etcd etcd) {
    VerifyBackupsConfig c = task.getSpec().getConfig().getVerifyBackups();
    return Duration.ofSeconds(c.getTimeoutSeconds() != null ? c.getTimeoutSeconds()
        : DEFAULT_TIMEOUT);
  }

  @Override
  public String run(EtcdOpsTask task, Etcd etcd, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException {
    String job = BackupDrillJobBuilder.jobName(etcd);
    Instant started = drills.now();
    progress.accept("starting restore drill job " + job);
    while (!drills.start(etcd, Duration.between(drills.now(), deadline.at()))) {
      deadline.pause(POLL, "waiting for the previous restore drill job " + job + " to end");
    }
    progress.accept("restore drill job " + job + " is running");
    Optional<DrillReport> report;
    while ((report = drills.reportAfter(etcd, started)).isEmpty()) {
      if (drills.state(etcd) == DrillJobs.State.FINISHED) {
        deadline.pause(POLL, "for the report of job " + job);
        report = drills.reportAfter(etcd, started);
        if (report.isEmpty()) {
          throw new TaskFailure(TaskError.BACKUP_VERIFICATION, "restore drill job " + job
              + " ended without a report in lease " + BackupDrillJobBuilder.leaseName(etcd)
              + "; see its pod's log");
        }
        break;
      }
      deadline.pause(POLL, "for restore drill job " + job);
    }
    return outcome(task, etcd, report.get());
  }

  private String outcome(EtcdOpsTask task, Etcd etcd, DrillReport r) throws TaskFailure {
    String said = BackupVerification.of(r).getMessage();
    if (r.outcome() == DrillReport.Outcome.FAILED) {
      events.warning(etcd, "BackupVerificationFailed", "EtcdOpsTask "
          + task.getMetadata().getName() + ": " + said);
      throw new TaskFailure(TaskError.BACKUP_VERIFICATION, said);
    }
    events.normal(etcd, "BackupVerification" + (r.outcome() == DrillReport.Outcome.VERIFIED
        ? "Succeeded" : "Inconclusive"), "EtcdOpsTask " + task.getMetadata().getName() + ": "
        + said);
    return said;
  }
}
