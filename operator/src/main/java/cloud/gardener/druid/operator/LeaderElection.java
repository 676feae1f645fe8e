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

  /**
   * How often the lease is renewed and when it is given up. fabric8's elector, which JOSDK
   * runs, renews every {@code retryPeriod} with a GET and a PATCH of the lease (a standby
   * GETs it every {@code retryPeriod} × 1 to 2.2), and the leader stops when no renewal
   * succeeded for {@code renewDeadline}; a standby takes over a lease not renewed for
   * {@code leaseDuration}, or one released, at its next try.
   */
  public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    /**
     * 30 s / 20 s / 8 s: the leader costs 0.25 requests/s, a standby about 0.08 (upstream's
     * controller-runtime defaults 15 s / 10 s / 2 s cost 1 and 0.3). A released lease is
     * taken over within 8 to 17.6 s, a crashed leader's within 30 + 17.6 s.
     */
    public static final Timing DEFAULT = new Timing(Duration.ofSeconds(30),
        Duration.ofSeconds(20), Duration.ofSeconds(8));

    /** A standby waits 1 to 1 + this retry periods between two tries (fabric8's jitter). */
    static final double JITTER = 1.2;

    /** The flags that set each duration, as the errors name them. */
    public static final String LEASE_DURATION_FLAG = "--leader-election-lease-duration";
    public static final String RENEW_DEADLINE_FLAG = "--leader-election-renew-deadline";
    public static final String RETRY_PERIOD_FLAG = "--leader-election-retry-period";

    public Timing {
      positive(leaseDuration, LEASE_DURATION_FLAG);
      positive(renewDeadline, RENEW_DEADLINE_FLAG);
      positive(retryPeriod, RETRY_PERIOD_FLAG);
      // the leader gives up before anyone may take over
      if (leaseDuration.compareTo(renewDeadline) <= 0) {
        throw new IllegalArgumentException(LEASE_DURATION_FLAG + " (" + seconds(leaseDuration)
            + " s) must be longer than " + RENEW_DEADLINE_FLAG + " ("
            + seconds(renewDeadline) + " s)");
      }
      // fabric8's rule: the deadline outlasts a retry period with its jitter
      if (renewDeadline.toMillis()
          <= retryPeriod.toMillis() + (long) Math.ceil(retryPeriod.toMillis() * JITTER)) {
        throw new IllegalArgumentException(RENEW_DEADLINE_FLAG + " (" + seconds(renewDeadline)
            + " s) must be longer than 2.2 x " + RETRY_PERIOD_FLAG + " ("
            + seconds(retryPeriod) + " s)");
      }
    }

    private static String seconds(Duration d) {
      return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds())
          : Double.toString(d.toMillis() / 1000.0);
    }

    private static void positive(Duration d, String flag) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(flag + " must be a positive duration, was " + d);
      }
    }

    /** The leader's renewals: a GET and a PATCH every retry period. */
    public double leaderRequestsPerSecond() {
      return 2_000.0 / retryPeriod.toMillis();
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final String identity;
  private final Timing timing;
  private final Runnable onLost;
  private volatile boolean closing;

  LeaderElection(String identity, Timing timing, Runnable onLost) {
    this.identity = identity;
    this.timing = timing;
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
        .withLeaseDuration(timing.leaseDuration())
        .withRenewDeadline(timing.renewDeadline())
        .withRetryPeriod(timing.retryPeriod())
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
