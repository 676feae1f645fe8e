package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
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

  /** The configuration etcd was started with. */
  Map<String, String> etcdConfig();
}
