package cloud.gardener.druid.agent.defrag;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.MemberStatus;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduled defragmentation, run by the leader's agent only, with the operator's member safety
 * rule: one member at a time and only while every follower is healthy and in sync (a member
 * being defragmented blocks, so with another one unhealthy the cluster could lose quorum);
 * every follower first, then leadership moves to a defragmented follower, then this (former
 * leader) member. A run that finds a follower unhealthy stops and leaves the rest to the next
 * schedule. A single member just defragments itself.
 */
public final class Defragmenter {

  private static final Logger LOG = LoggerFactory.getLogger(Defragmenter.class);

  /** A voting member other than this one. */
  record Peer(long id, String name, URI clientUrl) {
  }

  /** The cluster as the leader's agent reaches it. */
  interface Cluster {
    MemberStatus self() throws EtcdException;

    /** The voting members other than {@code selfId} that have a client URL. */
    List<Peer> followers(long selfId) throws EtcdException;

    /** The follower's own status; empty when it does not answer. */
    Optional<MemberStatus> status(Peer peer);

    void defragment(Peer peer) throws EtcdException;

    void moveLeader(Peer to) throws EtcdException;

    void defragmentSelf() throws EtcdException;
  }

  private final Cluster cluster;
  private final String name;

  public Defragmenter(MemberClient self, MemberConfig member, BackupRestoreMetrics metrics,
      Duration timeout) {
    this(new EtcdCluster(self, member, metrics, timeout), member.name());
  }

  /**
   * Defragments the member behind {@code client}, timed by its endpoint as upstream does, and
   * given up after {@code timeout} ({@code spec.etcd.etcdDefragTimeout}).
   */
  public static void defragment(MemberClient client, BackupRestoreMetrics metrics,
      Duration timeout) throws EtcdException {
    String endpoint = client.endpoint().toString();
    BackupRestoreMetrics.timed((ok, took) -> metrics.defragmented(endpoint, ok, took), () -> {
      client.defragment(timeout);
      return null;
    });
  }

  Defragmenter(Cluster cluster, String name) {
    this.cluster = cluster;
    this.name = name;
  }

  /** Defragments the cluster when this member leads; does nothing otherwise. */
  public void runIfLeader() throws EtcdException {
    MemberStatus leader = cluster.self();
    if (leader.role() != MemberStatus.Role.Leader) {
      return;
    }
    List<Peer> followers = cluster.followers(MemberStatus.parseHex(leader.id()));
    for (Peer follower : followers) {
      if (unsafe(leader, followers, "defragmenting " + follower.name())) {
        return;
      }
      cluster.defragment(follower);
      LOG.info("defragmented {}", follower.name());
    }
    if (unsafe(leader, followers, "defragmenting the leader " + name)) {
      return;
    }
    if (!followers.isEmpty()) {
      cluster.moveLeader(followers.get(0));
      LOG.info("moved leadership to {} before defragmenting {}", followers.get(0).name(), name);
    }
    cluster.defragmentSelf();
    LOG.info("defragmented {}", name);
  }

  private boolean unsafe(MemberStatus leader, List<Peer> followers, String step) {
    for (Peer f : followers) {
      Optional<String> why = whyNotInSync(leader, f, cluster.status(f));
      if (why.isPresent()) {
        LOG.warn("not {}: {}; the next scheduled run tries again", step, why.get());
        return true;
      }
    }
    return false;
  }

  /** Empty when {@code follower} answers, votes, follows {@code leader} and is in sync. */
  static Optional<String> whyNotInSync(MemberStatus leader, Peer follower,
      Optional<MemberStatus> status) {
    if (status.isEmpty()) {
      return Optional.of(follower.name() + " does not answer");
    }
    MemberStatus s = status.get();
    if (s.learner()) {
      return Optional.of(follower.name() + " is a learner catching up");
    }
    if (!leader.id().equals(s.leaderId())) {
      return Optional.of(follower.name() + " does not follow this leader");
    }
    long lag = leader.raftIndex() - s.raftIndex();
    return lag > AgentApi.MAX_RAFT_LAG
        ? Optional.of(follower.name() + " is " + lag + " raft entries behind the leader")
        : Optional.empty();
  }

  /** The real cluster, through this member's client and a short-lived client per follower. */
  private record EtcdCluster(MemberClient client, MemberConfig member,
      BackupRestoreMetrics metrics, Duration timeout) implements Cluster {

    @Override
    public MemberStatus self() throws EtcdException {
      return client.status();
    }

    @Override
    public List<Peer> followers(long selfId) throws EtcdException {
      return client.members().stream()
          .filter(m -> m.getId() != selfId && !m.isLearner() && !m.getClientURIs().isEmpty())
          .map(m -> new Peer(m.getId(), m.getName(), m.getClientURIs().get(0)))
          .toList();
    }

    @Override
    public Optional<MemberStatus> status(Peer peer) {
      try (MemberClient other = new MemberClient(peer.clientUrl(), member.clientTls(), member.etcdCredentials())) {
        return Optional.of(other.status());
      } catch (EtcdException e) {
        LOG.debug("status of {}: {}", peer.name(), e.getMessage());
        return Optional.empty();
      }
    }

    @Override
    public void defragment(Peer peer) throws EtcdException {
      try (MemberClient other = new MemberClient(peer.clientUrl(), member.clientTls(), member.etcdCredentials())) {
        Defragmenter.defragment(other, metrics, timeout);
      }
    }

    @Override
    public void moveLeader(Peer to) throws EtcdException {
      client.moveLeader(to.id());
    }

    @Override
    public void defragmentSelf() throws EtcdException {
      Defragmenter.defragment(client, metrics, timeout);
    }
  }
}
