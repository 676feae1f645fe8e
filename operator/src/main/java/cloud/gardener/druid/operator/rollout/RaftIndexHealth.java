package cloud.gardener.druid.operator.rollout;

import cloud.gardener.druid.operator.observe.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.Optional;

/**
 * Safe to roll when every wanted member is ready, reports to its agent, agrees on one leader,
 * no learner is catching up, and every follower's raft index is within {@code maxLag} of the
 * leader's.
 */
public final class RaftIndexHealth implements ClusterHealth {

  public static final long DEFAULT_MAX_LAG = 1_000;

  private final long maxLag;

  public RaftIndexHealth(long maxLag) {
    this.maxLag = maxLag;
  }

  @Override
  public Optional<String> whyNotSafeToRoll(ClusterSnapshot s) {
    for (MemberObservation m : s.wanted()) {
      if (!m.ready()) {
        return Optional.of(m.name() + " is not ready");
      }
      if (m.agent().isEmpty()) {
        return Optional.of("the agent of " + m.name() + " does not answer");
      }
      AgentView a = m.agent().get();
      if (!a.healthy()) {
        return Optional.of(m.name() + " is not healthy");
      }
      if (a.isLearner()) {
        return Optional.of(m.name() + " is a learner catching up");
      }
    }
    Optional<MemberObservation> leader = s.leader();
    if (leader.isEmpty()) {
      return Optional.of("no leader is known");
    }
    long leaderIndex = leader.get().agent().orElseThrow().raftIndex();
    for (MemberObservation m : s.wanted()) {
      long lag = leaderIndex - m.agent().orElseThrow().raftIndex();
      if (lag > maxLag) {
        return Optional.of(m.name() + " is " + lag + " raft entries behind the leader");
      }
    }
    return Optional.empty();
  }
}
