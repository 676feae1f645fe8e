package cloud.gardener.druid.agent.defrag;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.etcd.MemberStatus;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics;
import io.etcd.jetcd.cluster.Member;
import java.net.URI;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduled defragmentation, run by the leader's agent only: every follower first, then
 * leadership moves to a defragmented follower, then this (former leader) member. A single
 * member just defragments itself.
 */
public final class Defragmenter {

  private static final Logger LOG = LoggerFactory.getLogger(Defragmenter.class);

  private final MemberClient self;
  private final MemberConfig member;
  private final BackupRestoreMetrics metrics;

  public Defragmenter(MemberClient self, MemberConfig member, BackupRestoreMetrics metrics) {
    this.self = self;
    this.member = member;
    this.metrics = metrics;
  }

  /** Defragments the cluster when this member leads; does nothing otherwise. */
  public void runIfLeader() throws EtcdException {
    MemberStatus status = self.status();
    if (status.role() != MemberStatus.Role.Leader) {
      return;
    }
    long selfId = MemberStatus.parseHex(status.id());
    List<Member> followers = self.members().stream()
        .filter(m -> m.getId() != selfId && !m.isLearner() && !m.getClientURIs().isEmpty())
        .toList();
    for (Member follower : followers) {
      defragment(follower.getClientURIs().get(0), follower.getName());
    }
    if (!followers.isEmpty()) {
      self.moveLeader(followers.get(0).getId());
      LOG.info("moved leadership to {} before defragmenting {}", followers.get(0).getName(),
          member.name());
    }
    defragment(self, metrics);
    LOG.info("defragmented {}", member.name());
  }

  private void defragment(URI clientUrl, String name) throws EtcdException {
    try (MemberClient other = new MemberClient(clientUrl, member.clientTls())) {
      defragment(other, metrics);
      LOG.info("defragmented {}", name);
    }
  }

  /** Defragments the member behind {@code client}, timed by its endpoint as upstream does. */
  public static void defragment(MemberClient client, BackupRestoreMetrics metrics)
      throws EtcdException {
    String endpoint = client.endpoint().toString();
    BackupRestoreMetrics.timed((ok, took) -> metrics.defragmented(endpoint, ok, took), () -> {
      client.defragment();
      return null;
    });
  }
}
