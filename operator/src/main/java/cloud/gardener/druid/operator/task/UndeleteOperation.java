package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.pitr.TimeTravelReport;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.UndeleteConfig;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder.Kind;
import cloud.gardener.druid.operator.timetravel.TimeTravelJobs;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Brings the keys under a prefix back into the live cluster as they were at a revision
 * (addition, docs/time-travel.md): runs the Etcd's undelete Job ({@code druid agent undelete})
 * and ends as its report says; the description lists what was (or would be) written and what
 * was skipped and why. No member is touched but through ordinary client writes.
 */
final class UndeleteOperation implements AgentOperation {

  static final int DEFAULT_TIMEOUT = 1800;

  private final TimeTravelJobs jobs;
  private final OperatorSettings settings;
  private final EventRecorder events;

  UndeleteOperation(TimeTravelJobs jobs, OperatorSettings settings, EventRecorder events) {
    this.jobs = jobs;
    this.settings = settings;
    this.events = events;
  }

  @Override
  public Duration timeout(EtcdOpsTask task, Etcd etcd) {
    UndeleteConfig c = task.getSpec().getConfig().getUndelete();
    return Duration.ofSeconds(c.getTimeoutSeconds() != null ? c.getTimeoutSeconds()
        : DEFAULT_TIMEOUT);
  }

  @Override
  public String run(EtcdOpsTask task, Etcd etcd, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException {
    UndeleteConfig c = task.getSpec().getConfig().getUndelete();
    TimeTravelReport r = TimeTravelRun.toEnd(jobs, etcd, Kind.UNDELETE,
        TimeTravelJobBuilder.undelete(etcd, c, settings, deadline.left()), deadline, progress);
    String said = describe(r);
    if (r.outcome() == TimeTravelReport.Outcome.DONE) {
      events.normal(etcd, "Undeleted", "EtcdOpsTask " + task.getMetadata().getName() + ": "
          + r.message());
    }
    return said;
  }

  /** The message, then the keys (the first ones; the Job's log lists all). */
  static String describe(TimeTravelReport r) {
    StringBuilder s = new StringBuilder(r.message());
    keys(s, r.outcome() == TimeTravelReport.Outcome.DRY_RUN ? "would write" : "written",
        r.written());
    keys(s, "skipped", r.skipped());
    keys(s, "created after revision " + r.revision(), r.createdAfter());
    return s.toString();
  }

  private static void keys(StringBuilder s, String what, TimeTravelReport.Keys keys) {
    if (keys == null || keys.count() == 0) {
      return;
    }
    s.append("\n").append(what).append(": ").append(String.join(", ", keys.first()));
    if (keys.count() > keys.first().size()) {
      s.append(" and ").append(keys.count() - keys.first().size()).append(" more (see the job's log)");
    }
  }
}
