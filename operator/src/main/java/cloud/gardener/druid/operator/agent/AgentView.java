package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.agent.Membership;
import java.util.List;

/**
 * What one member's agent reports about its etcd.
 *
 * @param memberId this member's etcd id (hex)
 * @param clusterId the etcd cluster id (hex)
 * @param role Leader, Member or Learner
 * @param leaderId the id of the leader this member follows (hex), empty if none
 * @param raftIndex this member's raft index
 * @param healthy etcd answers and the member has a leader
 * @param members the etcd membership as this member sees it
 */
public record AgentView(String memberId, String clusterId, String role, String leaderId,
    long raftIndex, boolean healthy, List<Membership> members) {

  public boolean isLeader() {
    return "Leader".equals(role);
  }

  public boolean isLearner() {
    return "Learner".equals(role);
  }
}
