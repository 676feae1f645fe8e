package cloud.gardener.druid.agent.lease;

import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.api.agent.MemberStatus;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the leases the operator reads (upstream names): the member lease (named like the
 * member, holder {@code <memberID>:<clusterID>:<Leader|Member>}) every 10 seconds, and the
 * snapshot leases {@code <etcd>-full-snap} / {@code <etcd>-delta-snap} (holder = the
 * snapshot's last revision) after every snapshot. The operator creates the leases; a
 * missing lease is logged, not created.
 */
public final class LeaseRenewer implements SnapshotListener, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LeaseRenewer.class);

  private final LeaseClient leases;
  private final AgentConfig config;
  private final MemberClient etcd;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "leases"));

  private LeaseRenewer(LeaseClient leases, AgentConfig config, MemberClient etcd) {
    this.leases = leases;
    this.config = config;
    this.etcd = etcd;
  }

  public static LeaseRenewer start(AgentConfig config, MemberClient etcd) {
    LeaseRenewer renewer = new LeaseRenewer(LeaseClient.fromEnvironment(), config, etcd);
    renewer.executor.scheduleWithFixedDelay(renewer::renewMemberLease, 0,
        config.timings().leaseRenewal().toMillis(), TimeUnit.MILLISECONDS);
    return renewer;
  }

  /** Holder identity of the member lease, as upstream writes it. */
  public static String memberHolder(MemberStatus status) {
    String role = status.role() == MemberStatus.Role.Leader ? "Leader" : "Member";
    return status.id() + ":" + status.clusterId() + ":" + role;
  }

  private void renewMemberLease() {
    try {
      renew(config.member().name(), memberHolder(etcd.status()));
    } catch (EtcdException e) {
      LOG.debug("member lease not renewed: {}", e.getMessage());
    }
  }

  private void renew(String name, String holder) {
    String namespace = config.member().namespace();
    try {
      LeaseClient.Outcome outcome =
          leases.renew(namespace, name, holder, ZonedDateTime.now(ZoneOffset.UTC));
      if (outcome instanceof LeaseClient.Outcome.Missing) {
        LOG.warn("lease {}/{} does not exist", namespace, name);
      } else if (outcome instanceof LeaseClient.Outcome.Conflict) {
        LOG.warn("cannot renew lease {}: updated concurrently twice in a row", name);
      } else if (outcome instanceof LeaseClient.Outcome.Rejected rejected) {
        LOG.warn("cannot renew lease {}: HTTP {} {}", name, rejected.code(), rejected.reason());
      }
    } catch (RuntimeException e) {
      LOG.warn("cannot renew lease {}: {}", name, e.getMessage());
    }
  }

  @Override
  public void written(Snapshot snapshot) {
    String suffix = snapshot.isFull() ? "-full-snap" : "-delta-snap";
    executor.execute(() -> renew(config.member().etcdName() + suffix,
        Long.toString(snapshot.endRevision())));
  }

  @Override
  public void failed(Snapshot.Kind kind, Exception error) {
  }

  @Override
  public void close() {
    executor.shutdownNow();
    leases.close();
  }
}
