package cloud.gardener.druid.operator;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election between operator replicas on the Lease {@value #LEASE_NAME}: only the
 * holder reconciles. Each process has its own identity (pod name or host name plus a random
 * suffix, as client-go does), so that two replicas never share one.
 *
 * <p>Losing the lease while running means another replica may already act, so this one must
 * stop at once: {@code onLost} runs (the {@code druid operator} process exits). A requested
 * stop ({@link #closing()}) is not a loss: JOSDK stops the controllers after the running
 * reconciles, then {@link #release} hands the lease on. JOSDK's own
 * exit-on-stop is off because it would call {@code System.exit} from inside the JVM's
 * shutdown hook, which blocks forever.
 */
public final class LeaderElection {

  public static final String LEASE_NAME = "etcd-druid-leader-election";
  public static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  public static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
  public static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final String identity;
  private final Runnable onLost;
  private volatile boolean closing;

  LeaderElection(String identity, Runnable onLost) {
    this.identity = identity;
    this.onLost = onLost;
  }

  /** {@code <pod or host name>-<random>}. */
  static String newIdentity() {
    String base = Optional.ofNullable(System.getenv("POD_NAME")).filter(s -> !s.isBlank())
        .orElseGet(LeaderElection::hostName);
    return base + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "etcd-druid";
    }
  }

  String identity() {
    return identity;
  }

  LeaderElectionConfiguration configuration(String leaseNamespace) {
    return LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(LEASE_NAME)
        .withLeaseNamespace(leaseNamespace)
        .withIdentity(identity)
        .withLeaseDuration(LEASE_DURATION)
        .withRenewDeadline(RENEW_DEADLINE)
        .withRetryPeriod(RETRY_PERIOD)
        .withExitOnStopLeading(false)
        .withLeaderCallbacks(new LeaderCallbacks(
            () -> LOG.info("{} leads: reconciling", identity),
            this::stoppedLeading,
            leader -> LOG.info("leader is {}", leader)))
        .build();
  }

  private void stoppedLeading() {
    if (closing) {
      LOG.info("{} stopped leading (shutting down)", identity);
      return;
    }
    LOG.error("{} lost the leader lease; stopping so that only the new leader acts", identity);
    onLost.run();
  }

  /** The operator is being stopped: the end of leadership that follows is expected. */
  void closing() {
    closing = true;
  }

  /**
   * After the controllers stopped: gives the lease up when this replica still holds it, so the
   * next replica takes over at its next retry instead of after the lease expires (client-go's
   * release on cancel: an empty holder and a one-second duration). A concurrent change of the
   * lease (409) means someone else already holds it.
   */
  void release(KubernetesClient client, String leaseNamespace) {
    String namespace = leaseNamespace != null ? leaseNamespace : client.getNamespace();
    try {
      Lease lease = client.leases().inNamespace(namespace).withName(LEASE_NAME).get();
      if (lease == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
        return;
      }
      lease.getSpec().setHolderIdentity("");
      lease.getSpec().setLeaseDurationSeconds(1);
      client.resource(lease).update();
      LOG.info("{} released the leader lease", identity);
    } catch (KubernetesClientException e) {
      LOG.info("leader lease not released: {}", e.getMessage());
    }
  }
}
