package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.operator.agent.BackgroundCalls;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * An operation the task controller carries out itself through the members' agents. It runs on
 * a worker thread, never on a reconciler thread; the controller interrupts it at its deadline.
 */
interface AgentOperation {

  /** How long the whole operation may take, counted from the task's {@code startedAt}. */
  Duration timeout(EtcdOpsTask task, Etcd etcd);

  /**
   * Carries the task out and says what was done; blocks, at most until {@code deadline}. It
   * may hand lines saying how far it is to {@code progress} (the task's status shows the
   * latest), at most one every few seconds.
   */
  String run(EtcdOpsTask task, Etcd etcd, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException;

  /** How a run of an operation ended. */
  sealed interface Result {
  }

  record Succeeded(String description) implements Result {
  }

  record Failed(TaskError error) implements Result {
  }

  /** The result of a run that ended in the background as {@code ended}. */
  static Result resultOf(BackgroundCalls.Ended<Result> ended) {
    if (ended instanceof BackgroundCalls.Returned<Result> returned) {
      return returned.value();
    }
    if (ended instanceof BackgroundCalls.TimedOut<Result> timedOut) {
      return new Failed(new TaskError(TaskError.TIMEOUT, "the operation did not finish by its"
          + " deadline " + timedOut.deadline() + " and was cancelled"));
    }
    Throwable failure = ((BackgroundCalls.Threw<Result>) ended).failure();
    return new Failed(new TaskError(TaskError.EXECUTION, failure instanceof InterruptedException
        ? "interrupted" : "the operation failed unexpectedly: " + failure));
  }

  /** The operation failed for a reason the task's lastErrors should show. */
  final class TaskFailure extends Exception {
    private final TaskError error;

    TaskFailure(String code, String description) {
      super(description);
      this.error = new TaskError(code, description);
    }

    TaskError error() {
      return error;
    }
  }

  /** The moment an operation must be done by; waits poll until then. */
  record Deadline(Instant at, Clock clock) {

    boolean passed() {
      return !clock.instant().isBefore(at);
    }

    /** Time left until the deadline, at least a second (an HTTP timeout must be positive). */
    Duration left() {
      Duration left = Duration.between(clock.instant(), at);
      return left.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : left;
    }

    /** Pauses before polling again, or fails when the deadline has passed. */
    void pause(Duration interval, String waitingFor) throws TaskFailure, InterruptedException {
      Duration left = Duration.between(clock.instant(), at);
      if (left.isNegative() || left.isZero()) {
        throw new TaskFailure(TaskError.TIMEOUT, "timed out " + waitingFor);
      }
      Thread.sleep(Math.max(1, Math.min(interval.toMillis(), left.toMillis())));
    }
  }
}
