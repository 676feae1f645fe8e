package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.Optional;

/**
 * Safe to roll when every wanted member is ready, reports to its agent, agrees on one leader,
 * no learner is catching up, and every follower's raft index is within {@code maxLag} of the
 * leader's (the operator uses {@code AgentApi.MAX_RAFT_LAG}, as the agents' defragmentation).
 */
public final class RaftIndexHealth implements ClusterHealth {

  private final long maxLag;

  public RaftIndexHealth(long maxLag) {
    this.maxLag = maxLag;
  }

  @Override
  public Optional<String> whyNotSafeToRoll(ClusterSnapshot s) {
    Optional<String> notVoting = s.whyNotAllVote(null);
    if (notVoting.isPresent()) {
      return notVoting;
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
