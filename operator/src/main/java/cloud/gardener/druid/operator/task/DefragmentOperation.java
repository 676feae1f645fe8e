package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.Defragment;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import cloud.gardener.druid.operator.agent.AgentClient.AgentException;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.etcd.RolloutExecutor;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Defragments every member, following {@link DefragmentPlan}: observe, take one step with the
 * rollout's executor, observe again. The timeout is {@code timeoutSecondsPerMember} per member.
 */
final class DefragmentOperation implements AgentOperation {

  static final int DEFAULT_TIMEOUT_PER_MEMBER = 300;
  private static final Duration POLL = Duration.ofMillis(500);

  private final RolloutExecutor executor;
  private final Function<Etcd, ClusterSnapshot> observer;
  private final DefragmentPlan plan;
  private final EventRecorder events;

  DefragmentOperation(RolloutExecutor executor, Function<Etcd, ClusterSnapshot> observer,
      DefragmentPlan plan, EventRecorder events) {
    this.executor = executor;
    this.observer = observer;
    this.plan = plan;
    this.events = events;
  }

  @Override
  public Duration timeout(EtcdOpsTask task, Etcd etcd) {
    return perMember(task).multipliedBy(Math.max(1, EtcdDefaults.replicas(etcd)));
  }

  private static Duration perMember(EtcdOpsTask task) {
    DefragmentConfig c = task.getSpec().getConfig().getDefragment();
    return Duration.ofSeconds(c == null || c.getTimeoutSecondsPerMember() == null
        ? DEFAULT_TIMEOUT_PER_MEMBER : c.getTimeoutSecondsPerMember());
  }

  @Override
  public String run(EtcdOpsTask task, Etcd etcd, Deadline deadline, Consumer<String> progress)
      throws TaskFailure, InterruptedException {
    Set<String> done = new LinkedHashSet<>();
    List<String> log = new ArrayList<>();
    String name = task.getMetadata().getName();
    while (true) {
      ClusterSnapshot s = observer.apply(etcd);
      RolloutAction step = plan.next(s, done);
      if (step instanceof RolloutAction.Done) {
        return "defragmented " + String.join(", ", log);
      }
      if (step instanceof Wait w) {
        deadline.pause(POLL, "waiting until every member is ready and in sync (" + w.reason()
            + "); defragmented so far: " + (log.isEmpty() ? "none" : String.join(", ", log)));
        continue;
      }
      Duration timeout = deadline.left().compareTo(perMember(task)) < 0 ? deadline.left()
          : perMember(task);
      try {
        executor.forTask(name, timeout).execute(s, step);
      } catch (AgentException e) {
        events.warning(etcd, "DefragmentationFailed", "EtcdOpsTask " + name + ": "
            + e.getMessage());
        throw new TaskFailure(TaskError.DEFRAGMENT, e.getMessage());
      }
      if (step instanceof Defragment d) {
        done.add(d.name());
        log.add(d.name());
      } else if (step instanceof MoveLeader m) {
        log.add("moved leadership " + m.fromName() + " -> " + m.toName());
        awaitOtherLeader(etcd, m.fromName(), deadline);
      }
    }
  }

  /** Observes until a member other than {@code former} leads (the agents' views lag). */
  private void awaitOtherLeader(Etcd etcd, String former, Deadline deadline)
      throws TaskFailure, InterruptedException {
    while (observer.apply(etcd).leader().map(l -> l.name().equals(former)).orElse(true)) {
      deadline.pause(POLL, "waiting for leadership to leave " + former);
    }
  }
}
