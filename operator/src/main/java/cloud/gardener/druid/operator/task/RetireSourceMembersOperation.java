package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.RetireSourceMembersConfig;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.RemoveSourceMember;
import cloud.gardener.druid.operator.action.RolloutAction.TakeLeadership;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.agent.AgentClient.AgentException;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.etcd.RolloutExecutor;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Retires the source members of an Etcd that joined an existing cluster, following
 * {@link RetirePlan}: observe, take one step with the rollout's executor, observe until the
 * step shows. Refused when a member of the Etcd is not a ready voting member at the start.
 */
final class RetireSourceMembersOperation implements AgentOperation {

  static final int DEFAULT_TIMEOUT = 600;
  private static final Duration POLL = Duration.ofMillis(500);

  private final RolloutExecutor executor;
  private final Function<Etcd, ClusterSnapshot> observer;
  private final RetirePlan plan = new RetirePlan();
  private final EventRecorder events;

  RetireSourceMembersOperation(RolloutExecutor executor, Function<Etcd, ClusterSnapshot> observer,
      EventRecorder events) {
    this.executor = executor;
    this.observer = observer;
    this.events = events;
  }

  @Override
  public Duration timeout(EtcdOpsTask task, Etcd etcd) {
    RetireSourceMembersConfig c = task.getSpec().getConfig().getRetireSourceMembers();
    return Duration.ofSeconds(c == null || c.getTimeoutSeconds() == null ? DEFAULT_TIMEOUT
        : c.getTimeoutSeconds());
  }

  @Override
  public String run(EtcdOpsTask task, Etcd etcd, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException {
    Optional<String> notVoting = observer.apply(etcd).whyNotAllVote(null);
    if (notVoting.isPresent()) {
      throw new TaskFailure(TaskError.MEMBERS_NOT_READY, "refused: " + notVoting.get()
          + "; every member of Etcd " + etcd.getMetadata().getName() + " must be a ready"
          + " voting member before a source member is removed");
    }
    List<String> log = new ArrayList<>();
    while (true) {
      ClusterSnapshot s = observer.apply(etcd);
      RolloutAction step = plan.next(s);
      if (step instanceof RolloutAction.Done) {
        return log.isEmpty() ? "no source member is left in the etcd membership"
            : String.join("; ", log);
      }
      if (step instanceof Wait w) {
        deadline.pause(POLL, "waiting until " + w.reason());
        continue;
      }
      execute(task, etcd, s, step, deadline);
      log.add(step.describe());
      progress.accept(String.join("; ", log));
      awaitShown(etcd, step, deadline);
    }
  }

  private void execute(EtcdOpsTask task, Etcd etcd, ClusterSnapshot s, RolloutAction step,
      Deadline deadline) throws TaskFailure {
    try {
      executor.forTask(task.getMetadata().getName(), deadline.left()).execute(s, step);
    } catch (AgentException e) {
      events.warning(etcd, "RetireSourceMembersFailed", "EtcdOpsTask "
          + task.getMetadata().getName() + ": " + e.getMessage());
      throw new TaskFailure(TaskError.EXECUTION, step.describe() + ": " + e.getMessage());
    }
  }

  /** Observes until the step shows in the agents' views (they lag behind etcd). */
  private void awaitShown(Etcd etcd, RolloutAction step, Deadline deadline)
      throws TaskFailure, InterruptedException {
    if (step instanceof TakeLeadership t) {
      while (observer.apply(etcd).leader().isEmpty()) {
        deadline.pause(POLL, "waiting for " + t.name() + " to lead");
      }
    } else if (step instanceof RemoveSourceMember r) {
      while (observer.apply(etcd).foreignMembers().stream()
          .anyMatch(m -> m.id().equals(r.memberId()))) {
        deadline.pause(POLL, "waiting for " + r.name() + " to leave the membership");
      }
    }
  }
}
