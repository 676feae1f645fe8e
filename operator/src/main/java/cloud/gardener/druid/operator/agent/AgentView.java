package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.agent.MemberSpace;
import java.util.Optional;
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
 * @param versions the member's etcd version, the cluster's, and the downgrade etcd has enabled
 * @param space the member's space as its agent last sampled it (empty before the first sample
 *     or from an older agent)
 */
public record AgentView(String memberId, String clusterId, String role, String leaderId,
    long raftIndex, boolean healthy, List<Membership> members, EtcdVersions versions,
    Optional<MemberSpace> space) {

  public AgentView(String memberId, String clusterId, String role, String leaderId,
      long raftIndex, boolean healthy, List<Membership> members, EtcdVersions versions) {
    this(memberId, clusterId, role, leaderId, raftIndex, healthy, members, versions,
        Optional.empty());
  }

  public AgentView(String memberId, String clusterId, String role, String leaderId,
      long raftIndex, boolean healthy, List<Membership> members) {
    this(memberId, clusterId, role, leaderId, raftIndex, healthy, members, EtcdVersions.UNKNOWN);
  }

  public boolean isLeader() {
    return "Leader".equals(role);
  }

  public boolean isLearner() {
    return "Learner".equals(role);
  }

  /**
   * What etcd says of its versions; each null when it did not say (an older agent).
   *
   * @param member the member's etcd, e.g. 3.6.16
   * @param cluster the cluster version, e.g. 3.6.0
   * @param downgradeTarget the minor etcd's downgrade is enabled to, e.g. 3.5
   * @param storage the schema of the member's database, e.g. 3.7.0 (etcd 3.6+)
   */
  public record EtcdVersions(String member, String cluster, String downgradeTarget,
      String storage) {
    public static final EtcdVersions UNKNOWN = new EtcdVersions(null, null, null, null);
  }
}
