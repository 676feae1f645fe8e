package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.agent.SnapshotProgress;
import cloud.gardener.druid.operator.agent.AgentReport;
import cloud.gardener.druid.operator.agent.AgentView;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** What the operator asks of a member's agent. The agent acts on its own member only. */
public interface AgentClient {

  /** The member's view of etcd, or empty when the agent does not answer in time. */
  Optional<AgentView> status(AgentEndpoint endpoint);

  /**
   * The member's view of etcd and, while it restores from the backup store, how far that is;
   * one status call. By default the view alone.
   */
  default AgentReport report(AgentEndpoint endpoint) {
    return AgentReport.of(status(endpoint));
  }

  /** Asks the leader's agent to hand leadership to the member with {@code toMemberId}. */
  void moveLeader(AgentEndpoint leader, String toMemberId);

  /** Asks an agent to promote the learner with {@code memberId}. */
  void promote(AgentEndpoint via, String memberId);

  /**
   * One step of etcd's downgrade protocol through an agent: validate or enable the downgrade
   * of the cluster to {@code minor}, or cancel it; the cluster version etcd answered. etcd's
   * refusal is an {@link AgentException} with etcd's reason.
   */
  default String downgrade(AgentEndpoint via, Downgraded.Action action, String minor) {
    throw new AgentException("this agent client cannot downgrade etcd");
  }

  /** Asks an agent to remove {@code memberId} from the etcd membership. */
  void removeMember(AgentEndpoint via, String memberId);

  /**
   * Asks the leader's agent for a full snapshot ({@code isFinal} before hibernation) and
   * returns once it is in the store: the snapshot's end revision.
   */
  long fullSnapshot(AgentEndpoint leader, boolean isFinal);

  /**
   * Asks the leader's agent for a delta snapshot of the events since the last one; the end
   * revision of the delta, or empty when there were no events.
   */
  OptionalLong deltaSnapshot(AgentEndpoint leader);

  /**
   * How far the snapshot the agent writes now (or wrote last) is; empty when it does not say
   * in the status timeout (an older agent, none taken yet). A quick read, safe to poll.
   */
  default Optional<SnapshotProgress> snapshotProgress(AgentEndpoint endpoint) {
    return Optional.empty();
  }

  /** Compacts etcd's key history to the current revision through an agent; the revision. */
  long compact(AgentEndpoint via);

  /** Disarms etcd's NOSPACE alarms through an agent; what it disarmed. */
  List<String> disarmNoSpace(AgentEndpoint via);

  /** Asks an agent to defragment its own member's database. */
  void defragment(AgentEndpoint member);

  /**
   * This client with requests that change state (snapshots, defragmentation, membership)
   * waiting up to {@code timeout} for the agent's answer, for callers off the reconciler
   * threads whose operation has its own, longer timeout; by default the client itself.
   */
  default AgentClient withActionTimeout(Duration timeout) {
    return this;
  }

  /** A request the agent refused or failed; the message says why. */
  final class AgentException extends RuntimeException {
    public AgentException(String message) {
      super(message);
    }

    public AgentException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
