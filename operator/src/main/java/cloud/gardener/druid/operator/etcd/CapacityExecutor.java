package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.CapacityStatus;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.capacity.CapacityAction;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.status.VolumeRecorder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Carries out one {@link CapacityAction}: the agent calls (defragment, move leadership,
 * compact, disarm) and the records that make the members' quota or volume larger (written
 * through {@link VolumeRecorder}; the rollout then restarts or grows the members under the
 * rollout contract). Every step is announced by an event that carries its trigger, and
 * recorded as status.capacity.lastAction.
 */
final class CapacityExecutor implements CapacityAction.Handler<Void> {

  /** How long one member's defragmentation may take before the step fails. */
  static final Duration DEFRAGMENT_TIMEOUT = Duration.ofMinutes(5);

  private final AgentClient agents;
  private final EventRecorder events;
  private final VolumeRecorder records;
  private final Clock clock;
  private final ClusterSnapshot s;

  private CapacityExecutor(AgentClient agents, EventRecorder events, VolumeRecorder records,
      Clock clock, ClusterSnapshot s) {
    this.agents = agents;
    this.events = events;
    this.records = records;
    this.clock = clock;
    this.s = s;
  }

  /** Executes {@code action} against the cluster as observed in {@code s}. */
  static void execute(AgentClient agents, EventRecorder events, VolumeRecorder records,
      Clock clock, ClusterSnapshot s, CapacityAction action) {
    action.accept(new CapacityExecutor(agents.withActionTimeout(DEFRAGMENT_TIMEOUT), events,
        records, clock, s));
  }

  @Override
  public Void idle(CapacityAction.Idle action) {
    return null;
  }

  @Override
  public Void hold(CapacityAction.Hold action) {
    return null;
  }

  @Override
  public Void defragment(CapacityAction.Defragment action) {
    agents.defragment(endpoint(action.ordinal()));
    done("CapacityDefragmented", action, c -> c);
    return null;
  }

  @Override
  public Void moveLeader(CapacityAction.MoveLeader action) {
    agents.moveLeader(endpoint(action.fromOrdinal()), action.toMemberId());
    done("LeadershipMoved", action, c -> c);
    return null;
  }

  @Override
  public Void compact(CapacityAction.Compact action) {
    long revision = agents.compact(endpoint(action.viaOrdinal()));
    done("NoSpaceCompacted", action, c -> {
      c.setCompactedRevision(revision);
      return c;
    });
    return null;
  }

  @Override
  public Void disarmAlarm(CapacityAction.DisarmAlarm action) {
    List<String> disarmed = agents.disarmNoSpace(endpoint(action.viaOrdinal()));
    done("NoSpaceAlarmDisarmed", action, c -> c);
    if (disarmed.isEmpty()) {
      events.normal(s.etcd(), "NoSpaceAlarmDisarmed", "no NOSPACE alarm was left to disarm");
    }
    return null;
  }

  @Override
  public Void raiseQuota(CapacityAction.RaiseQuota action) {
    done("CapacityQuotaRaised", action, c -> {
      c.setRaisedQuota(mebibytes(action.toBytes()));
      return c;
    });
    return null;
  }

  @Override
  public Void growVolume(CapacityAction.GrowVolume action) {
    done("CapacityVolumeGrowing", action, c -> {
      c.setGrownStorage(mebibytes(action.toBytes()));
      return c;
    });
    return null;
  }

  private void done(String reason, CapacityAction action, UnaryOperator<CapacityStatus> record) {
    Etcd etcd = s.etcd();
    records.recordCapacity(etcd, c -> {
      CapacityStatus next = record.apply(c);
      next.setLastAction(action.describe());
      next.setLastActionTime(clock.instant().toString());
      return next;
    });
    events.normal(etcd, reason, action.describe());
  }

  private static Quantity mebibytes(long bytes) {
    return new Quantity((bytes >> 20) + "Mi");
  }

  private AgentEndpoint endpoint(int ordinal) {
    MemberObservation m = s.members().get(ordinal);
    Pod pod = m.pod().orElseThrow(() -> new AgentClient.AgentException(m.name() + " has no pod"));
    return AgentEndpoint.of(pod, EtcdDefaults.agentPort(s.etcd()), EtcdDefaults.agentTls(s.etcd()))
        .orElseThrow(() -> new AgentClient.AgentException(m.name() + " has no pod IP yet"));
  }
}
