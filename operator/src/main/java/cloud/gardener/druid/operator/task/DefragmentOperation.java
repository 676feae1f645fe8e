package cloud.gardener.druid.operator.task;

import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentClient.AgentException;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.task.DefragmentPlan.Defragment;
import cloud.gardener.druid.operator.task.DefragmentPlan.Done;
import cloud.gardener.druid.operator.task.DefragmentPlan.MoveLeader;
import cloud.gardener.druid.operator.task.DefragmentPlan.Step;
import cloud.gardener.druid.operator.task.DefragmentPlan.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Defragments every member through its agent, following {@link DefragmentPlan}: observe, take
 * one step, observe again. The timeout is {@code timeoutSecondsPerMember} per member.
 */
final class DefragmentOperation implements AgentOperation {

  static final int DEFAULT_TIMEOUT_PER_MEMBER = 300;
  private static final Duration POLL = Duration.ofMillis(500);

  private final AgentClient agents;
  private final Function<Etcd, ClusterSnapshot> observer;
  private final DefragmentPlan plan;
  private final EventRecorder events;

  DefragmentOperation(AgentClient agents, Function<Etcd, ClusterSnapshot> observer,
      DefragmentPlan plan, EventRecorder events) {
    this.agents = agents;
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
  public String run(EtcdOpsTask task, Etcd etcd, Deadline deadline,
      java.util.function.Consumer<String> progress) throws TaskFailure, InterruptedException {
    Set<String> done = new LinkedHashSet<>();
    List<String> log = new ArrayList<>();
    String task0 = "EtcdOpsTask " + task.getMetadata().getName() + ": ";
    while (true) {
      Step step = plan.next(observer.apply(etcd), done);
      AgentClient calls = agents.withActionTimeout(
          deadline.left().compareTo(perMember(task)) < 0 ? deadline.left() : perMember(task));
      try {
        if (step instanceof Done) {
          return "defragmented " + String.join(", ", log);
        } else if (step instanceof Wait w) {
          deadline.pause(POLL, "waiting until every member is ready and in sync (" + w.reason()
              + "); defragmented so far: " + (log.isEmpty() ? "none" : String.join(", ", log)));
        } else if (step instanceof Defragment d) {
          calls.defragment(endpoint(etcd, d.member()));
          done.add(d.member().name());
          log.add(d.member().name());
          events.normal(etcd, "MemberDefragmented", task0 + "defragmented " + d.member().name());
        } else if (step instanceof MoveLeader m) {
          calls.moveLeader(endpoint(etcd, m.leader()), DefragmentPlan.memberId(m.to()));
          log.add("moved leadership " + m.leader().name() + " -> " + m.to().name());
          events.normal(etcd, "LeaderMoved", task0 + "moved leadership from "
              + m.leader().name() + " to " + m.to().name() + " before defragmenting it");
          awaitOtherLeader(etcd, m.leader().name(), deadline);
        }
      } catch (AgentException e) {
        events.warning(etcd, "DefragmentationFailed", task0 + e.getMessage());
        throw new TaskFailure(TaskError.DEFRAGMENT, e.getMessage());
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

  private static AgentEndpoint endpoint(Etcd etcd, MemberObservation m) {
    return m.pod().flatMap(p -> AgentEndpoint.of(p, EtcdDefaults.agentPort(etcd),
        EtcdDefaults.agentTls(etcd)))
        .orElseThrow(() -> new AgentException("member " + m.name() + " has no pod address"));
  }
}
