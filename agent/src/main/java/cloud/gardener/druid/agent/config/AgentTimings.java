package cloud.gardener.druid.agent.config;

import java.time.Duration;

/**
 * How long the agent's etcd calls may take and how often it renews and checks, from upstream's
 * fields: {@code spec.backup.etcdSnapshotTimeout}, {@code spec.etcd.etcdDefragTimeout},
 * {@code spec.etcd.heartbeatDuration} and {@code spec.backup.leaderElection}.
 *
 * @param snapshotTimeout a full snapshot is given up after this long
 * @param defragTimeout a member's defragmentation is given up after this long
 * @param leaseRenewal the member lease is renewed this often
 * @param leaderCheck how often the agent asks etcd whether its member leads (and so takes the
 *     snapshots)
 * @param leaderCheckTimeout how long that question may take
 */
public record AgentTimings(Duration snapshotTimeout, Duration defragTimeout,
    Duration leaseRenewal, Duration leaderCheck, Duration leaderCheckTimeout) {

  public static final AgentTimings DEFAULTS = new AgentTimings(Duration.ofMinutes(15),
      Duration.ofMinutes(15), Duration.ofSeconds(10), Duration.ofSeconds(1),
      Duration.ofSeconds(10));

  public AgentTimings {
    for (Duration d : new Duration[] {snapshotTimeout, defragTimeout, leaseRenewal,
        leaderCheck, leaderCheckTimeout}) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("agent timings must be positive: " + d);
      }
    }
  }
}
