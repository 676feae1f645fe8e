package cloud.gardener.druid.agent.init;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.ClusterState;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics;
import cloud.gardener.druid.api.agent.MemberStatus;
import io.etcd.jetcd.cluster.Member;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes this member join a running cluster as a learner: a started member of the same name
 * or peer URL is stale (its data is gone) and is removed first; a member that was added but
 * never started is reused. Returns the cluster etcd must start in.
 */
final class ClusterJoiner {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterJoiner.class);

  private final MemberConfig member;

  ClusterJoiner(MemberConfig member) {
    this.member = member;
  }

  /**
   * A client of a reachable other member whose cluster has a quorum, if any. Every other
   * member is asked at once, so unreachable ones cost one timeout in all, not one each; the
   * first that answers wins, the clients of later answers are closed.
   */
  Optional<MemberClient> findRunningCluster() {
    List<Map.Entry<String, URI>> peers = List.copyOf(member.otherClientUrls().entrySet());
    if (peers.isEmpty()) {
      return Optional.empty();
    }
    ExecutorService pool = Executors.newFixedThreadPool(peers.size(), r -> {
      Thread t = new Thread(r, "probe peers");
      t.setDaemon(true);
      return t;
    });
    try {
      CompletionService<Optional<MemberClient>> probes = new ExecutorCompletionService<>(pool);
      for (Map.Entry<String, URI> peer : peers) {
        probes.submit(() -> probe(peer.getKey(), peer.getValue()));
      }
      Optional<MemberClient> found = Optional.empty();
      for (int answered = 0; answered < peers.size(); answered++) {
        Optional<MemberClient> answer = probes.take().get();
        if (found.isEmpty()) {
          found = answer;
        } else {
          answer.ifPresent(MemberClient::close);
        }
        if (found.isPresent()) {
          closeLaterAnswers(probes, peers.size() - answered - 1);
          break;
        }
      }
      return found;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (ExecutionException e) {
      throw new IllegalStateException("probing the other members failed", e.getCause());
    } finally {
      pool.shutdown();
    }
  }

  private Optional<MemberClient> probe(String name, URI clientUrl) {
    MemberClient client = new MemberClient(clientUrl, member.clientTls(), member.etcdCredentials());
    try {
      client.members();
      client.revision();
      return Optional.of(client);
    } catch (EtcdException e) {
      LOG.info("member {} is not reachable: {}", name, e.getMessage());
      client.close();
      return Optional.empty();
    }
  }

  /** The probes still running close what they open once they end. */
  private static void closeLaterAnswers(CompletionService<Optional<MemberClient>> probes,
      int pending) {
    Thread closer = new Thread(() -> {
      try {
        for (int i = 0; i < pending; i++) {
          probes.take().get().ifPresent(MemberClient::close);
        }
      } catch (InterruptedException | ExecutionException e) {
        // nothing left to close
      }
    }, "close late probes");
    closer.setDaemon(true);
    closer.start();
  }

  /** Joins; the member removal and the learner addition are timed into {@code metrics}. */
  StartPlan join(MemberClient cluster, BackupRestoreMetrics metrics) throws EtcdException {
    URI selfPeerUrl = member.advertisePeerUrl();
    Optional<Member> existing = cluster.members().stream()
        .filter(m -> m.getName().equals(member.name()) || m.getPeerURIs().contains(selfPeerUrl))
        .findFirst();
    if (existing.isPresent() && !existing.get().getName().isEmpty()) {
      LOG.info("removing stale member {} ({}) before joining anew", member.name(),
          MemberStatus.hex(existing.get().getId()));
      long staleId = existing.get().getId();
      BackupRestoreMetrics.timed(metrics::memberRemoved, () -> {
        cluster.remove(staleId);
        return null;
      });
      existing = Optional.empty();
    }
    if (existing.isEmpty()) {
      Member added = BackupRestoreMetrics.timed(metrics::learnerAdded,
          () -> cluster.addLearner(member.advertisePeerUrls()));
      LOG.info("added {} as learner {}", member.name(), MemberStatus.hex(added.getId()));
    }
    return new StartPlan(ClusterState.EXISTING, clusterOf(cluster.members()),
        StartPlan.Outcome.JOINED_AS_LEARNER);
  }

  /**
   * Names as etcd must see them in --initial-cluster, each with every peer URL the member
   * advertises (etcd matches a joining member's view with the cluster's by the full set);
   * unstarted members have no name yet.
   */
  private Map<String, List<URI>> clusterOf(List<Member> members) {
    Map<String, List<URI>> cluster = new LinkedHashMap<>();
    for (Member m : members) {
      String name = m.getName().isEmpty() ? nameFor(m.getPeerURIs(), m.getId()) : m.getName();
      cluster.put(name, List.copyOf(m.getPeerURIs()));
    }
    return cluster;
  }

  /** By any of its peer URLs: etcd lists them sorted, the additional ones maybe first. */
  private String nameFor(List<URI> peerUrls, long id) {
    if (peerUrls.contains(member.advertisePeerUrl())) {
      return member.name();
    }
    return member.initialCluster().entrySet().stream()
        .filter(e -> peerUrls.contains(e.getValue())).map(Map.Entry::getKey).findFirst()
        .orElse("unstarted-" + MemberStatus.hex(id));
  }
}
