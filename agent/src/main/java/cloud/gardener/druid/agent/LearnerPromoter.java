package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics;
import cloud.gardener.druid.api.agent.MemberStatus;
import java.net.URI;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After joining as a learner, asks the other members (learners cannot list members) to
 * promote this member every two seconds until etcd accepts (it refuses while the learner is
 * behind the leader).
 */
final class LearnerPromoter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LearnerPromoter.class);

  private final MemberClient self;
  private final MemberConfig member;
  private final BackupRestoreMetrics metrics;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "promote"));

  LearnerPromoter(MemberClient self, MemberConfig member, BackupRestoreMetrics metrics) {
    this.self = self;
    this.member = member;
    this.metrics = metrics;
  }

  void start() {
    executor.scheduleWithFixedDelay(this::tryPromote, 2, 2, TimeUnit.SECONDS);
  }

  private void tryPromote() {
    try {
      MemberStatus status = self.status();
      if (!status.learner()) {
        metrics.learner(false);
        LOG.info("{} is a voting member", member.name());
        executor.shutdown();
        return;
      }
      long id = MemberStatus.parseHex(status.id());
      EtcdException last = null;
      for (URI voter : member.otherClientUrls().values()) {
        try {
          promoteVia(voter, id);
          return;
        } catch (EtcdException e) {
          last = e;
        }
      }
      if (last != null) {
        throw last;
      }
    } catch (EtcdException e) {
      LOG.info("learner {} not promoted yet: {}", member.name(), e.getMessage());
    }
  }

  private void promoteVia(URI voter, long id) throws EtcdException {
    try (MemberClient client = new MemberClient(voter, member.clientTls(), member.etcdCredentials())) {
      BackupRestoreMetrics.timed(metrics::memberPromoted, () -> {
        client.promote(id);
        return null;
      });
      metrics.learner(false);
      LOG.info("promoted learner {} ({})", member.name(), MemberStatus.hex(id));
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
