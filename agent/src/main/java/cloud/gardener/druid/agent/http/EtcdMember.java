package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.api.agent.MemberSpace;
import java.util.Map;
import java.util.Optional;

/** This member's etcd, as the agent API probes and reaches it. */
public interface EtcdMember {

  /** etcd answers a status request. */
  boolean etcdHealthy();

  /** etcd answers and is a voting member (a learner answers but refuses client requests). */
  boolean etcdServesClients();

  /** The client of this member's etcd, empty while etcd does not run. */
  Optional<MemberClient> client();

  /**
   * Moves etcd leadership to member {@code to}, from this member when it leads, else through
   * the leader (a member of another cluster this one joined included).
   */
  void moveLeader(long to) throws EtcdException;

  /** This member's space as last sampled, with its rates; empty before the first sample. */
  Optional<MemberSpace> space();

  /**
   * The space changed (a defragmentation, a compaction, a disarmed alarm): the next
   * {@link #space()} samples anew, or the operator would decide the same step again.
   */
  void spaceChanged();

  /** The configuration etcd was started with. */
  Map<String, String> etcdConfig();

  /**
   * Why etcd refused this member's data (its initial corruption check found it differs from
   * the peers'), naming the cure; empty when it did not.
   */
  Optional<String> corruption();
}
