package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.pitr.TimeTravelReport;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder.Kind;
import cloud.gardener.druid.operator.task.AgentOperation.Deadline;
import cloud.gardener.druid.operator.task.AgentOperation.TaskFailure;
import cloud.gardener.druid.operator.timetravel.TimeTravelJobs;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.util.function.Consumer;

/** Runs one time travel Job to its end and answers its report (a failed one as a failure). */
final class TimeTravelRun {

  private static final Duration POLL = Duration.ofSeconds(2);

  private TimeTravelRun() {
  }

  static TimeTravelReport toEnd(TimeTravelJobs jobs, Etcd etcd, Kind kind, Job job,
      Deadline deadline, Consumer<String> progress) throws TaskFailure, InterruptedException {
    String name = TimeTravelJobBuilder.jobName(etcd, kind);
    progress.accept("starting job " + name);
    while (!jobs.start(job)) {
      deadline.pause(POLL, "waiting for the previous job " + name + " to be deleted");
    }
    progress.accept("job " + name + " is running");
    TimeTravelJobs.State state;
    while (!((state = jobs.state(etcd, kind)) instanceof TimeTravelJobs.State.Finished)) {
      deadline.pause(POLL, "for job " + name);
    }
    TimeTravelJobs.State.Finished finished = (TimeTravelJobs.State.Finished) state;
    if (finished.report().isEmpty()) {
      throw new TaskFailure(TaskError.TIME_TRAVEL, "job " + name + " ended ("
          + (finished.succeeded() ? "succeeded" : "failed") + ") without a report; see its "
          + "pod's log");
    }
    TimeTravelReport report = finished.report().get();
    if (report.outcome() == TimeTravelReport.Outcome.FAILED) {
      throw new TaskFailure(TaskError.TIME_TRAVEL, report.message());
    }
    return report;
  }
}
