package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.capacity.CapacityAction;
import cloud.gardener.druid.operator.capacity.CapacityPlan;
import cloud.gardener.druid.operator.capacity.CapacityPolicy;
import cloud.gardener.druid.operator.capacity.SpaceForecast;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.RunningTasks;
import cloud.gardener.druid.operator.status.VolumeRecorder;
import java.time.Clock;
import java.util.Optional;

/**
 * The capacity flow's step of a reconcile whose rollout is done (docs/capacity.md): one
 * decision of {@link CapacityPlan} from the same observation, carried out by
 * {@link CapacityExecutor}. At most one capacity action per reconcile, never beside a rollout
 * step, never while an EtcdOpsTask changes the members (read only when there is an action to
 * take, so that an idle Etcd costs no request).
 */
public final class CapacityStep {

  private final CapacityPlan plan;
  private final RunningTasks tasks;
  private final AgentClient agents;
  private final EventRecorder events;
  private final VolumeRecorder records;
  private final Clock clock;

  public CapacityStep(CapacityPlan plan, RunningTasks tasks, AgentClient agents,
      EventRecorder events, VolumeRecorder records, Clock clock) {
    this.plan = plan;
    this.tasks = tasks;
    this.agents = agents;
    this.events = events;
    this.records = records;
    this.clock = clock;
  }

  /** The action decided for {@code s}, carried out unless it is idle or held. */
  CapacityAction take(ClusterSnapshot s) {
    long compacted = Optional.ofNullable(records.latest(s.etcd()).getStatus())
        .map(st -> st.getCapacity()).map(c -> c.getCompactedRevision()).orElse(0L);
    CapacityAction action = plan.next(s, SpaceForecast.of(s), CapacityPolicy.of(s.etcd()),
        compacted);
    if (action.acts()) {
      action = CapacityPlan.unlessTasksRun(action, tasks.of(s.etcd()));
    }
    if (!action.acts()) {
      return action;
    }
    try {
      CapacityExecutor.execute(agents, events, records, clock, s, action);
    } catch (RuntimeException e) {
      events.warning(s.etcd(), "CapacityActionFailed", action.describe() + " failed: "
          + e.getMessage());
      throw e;
    }
    return action;
  }
}
