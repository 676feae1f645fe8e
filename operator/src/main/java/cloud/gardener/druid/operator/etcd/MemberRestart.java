package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.action.RestartReason;
import cloud.gardener.druid.operator.action.RolloutAction.RestartMember;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.Optional;

/**
 * Executes a {@link RestartMember}: deletes the member's pod (only the one observed, by uid),
 * waits a bounded moment for it to go and creates it again from the desired spec. A pod that
 * takes longer leaves the restart {@link RolloutExecutor.Outcome.Waiting}; the planner plans
 * the same restart on the next observation, which then finds the pod terminating or gone.
 *
 * <p>Before it takes down a member that votes, it asks every other member's agent afresh
 * whether that member still votes: the planner decided from an observation whose agent answers
 * may be two seconds old, and a member that died since (a crash, a killed process, a lost
 * node) plus the restarted one would be two of three members down, the quorum lost ({@code
 * druid bench chaos}, seed 2, round 3: an agent killed 200 ms before the rollout restarted
 * another member; writes failed with etcd's "request timed out" until one was back).
 */
final class MemberRestart {

  /** How long one reconcile waits for the deleted pod to go before it answers Waiting. */
  static final Duration POD_GONE_WAIT = Duration.ofSeconds(3);

  private final MemberPods pods;
  private final AgentClient agents;
  private final OperatorSettings settings;
  private final EventRecorder events;
  private final Duration podGoneWait;

  MemberRestart(MemberPods pods, AgentClient agents, OperatorSettings settings,
      EventRecorder events, Duration podGoneWait) {
    this.pods = pods;
    this.agents = agents;
    this.settings = settings;
    this.events = events;
    this.podGoneWait = podGoneWait;
  }

  RolloutExecutor.Outcome run(ClusterSnapshot s, RestartMember action) {
    Etcd etcd = s.etcd();
    String ns = etcd.getMetadata().getNamespace();
    MemberObservation member = s.members().get(action.ordinal());
    Optional<Pod> observed = member.pod();
    if (observed.isPresent()) {
      if (observed.get().getMetadata().getDeletionTimestamp() == null) {
        Optional<String> stoppedVoting = member.votes() ? othersStoppedVoting(s, member)
            : Optional.empty();
        if (stoppedVoting.isPresent()) {
          return new RolloutExecutor.Outcome.Waiting(stoppedVoting.get() + " (asked just before"
              + " restarting " + action.name() + ")");
        }
        events.normal(etcd, "MemberUpdating", action.describe());
        if (!pods.delete(ns, member)) {
          // another pod holds the name since the observation: the next one decides about it
          return new RolloutExecutor.Outcome.Done();
        }
      }
      if (!pods.gone(ns, action.name(), observed.get().getMetadata().getUid(), podGoneWait)) {
        return new RolloutExecutor.Outcome.Waiting(action.name() + "'s pod to terminate", true);
      }
    }
    pods.createIfAbsent(MemberPodBuilder.build(etcd, settings, action.ordinal(),
        EtcdDefaults.replicas(etcd)));
    events.normal(etcd, "MemberRestarted", "started member " + action.name()
        + " again from the desired spec (" + RestartReason.describe(action.reasons()) + ")");
    return new RolloutExecutor.Outcome.Done();
  }

  /** Why a member other than {@code member} no longer votes, by its agent's answer now. */
  private Optional<String> othersStoppedVoting(ClusterSnapshot s, MemberObservation member) {
    int port = EtcdDefaults.agentPort(s.etcd());
    boolean tls = EtcdDefaults.agentTls(s.etcd());
    for (MemberObservation other : s.wanted()) {
      if (other.ordinal() == member.ordinal() || other.pod().isEmpty()) {
        continue;
      }
      Optional<AgentEndpoint> endpoint = AgentEndpoint.of(other.pod().get(), port, tls);
      MemberObservation now = new MemberObservation(other.ordinal(), other.name(), other.pod(),
          other.pvc(), endpoint.flatMap(agents::status));
      Optional<String> why = now.whyNotVoting();
      if (why.isPresent()) {
        return why;
      }
    }
    return Optional.empty();
  }
}
