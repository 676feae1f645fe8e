package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.operator.LeaderElection;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The operator replicas of a chaos run, each its own process ({@code POD_NAME} operator,
 * operator-2, …, so that a lease holder's identity names its replica), and which of them leads
 * by the Lease. A killed replica is replaced at once, as a Deployment's ReplicaSet would.
 */
final class ChaosOperators implements AutoCloseable {

  private final OperatorProcess.Launch launch;
  private final ProcessLedger ledger;
  private final KubernetesClient admin;
  private final List<OperatorProcess> running = new CopyOnWriteArrayList<>();
  private int started;
  /** The lease holder the last kill ended: its successor must take the lease. */
  private volatile String killedHolder = "";

  ChaosOperators(OperatorProcess.Launch launch, ProcessLedger ledger, KubernetesClient admin) {
    this.launch = launch;
    this.ledger = ledger;
    this.admin = admin;
  }

  /** Starts {@code replicas} replicas and waits until each answers /readyz. */
  void start(int replicas, Duration timeout) throws InterruptedException {
    for (int i = 0; i < replicas; i++) {
      startOne();
    }
    for (OperatorProcess p : running) {
      p.awaitReady(timeout);
    }
  }

  private OperatorProcess startOne() {
    started++;
    OperatorProcess p = OperatorProcess.start(launch, started == 1 ? "operator"
        : "operator-" + started, ledger);
    running.add(p);
    return p;
  }

  /** The pids of the replicas running now. */
  Set<Long> pids() {
    return running.stream().map(OperatorProcess::pid).collect(Collectors.toSet());
  }

  /** Every one of {@code pids} still runs: no replica crashed or stopped meanwhile. */
  boolean stillRunning(Set<Long> pids) {
    return pids.equals(running.stream().filter(OperatorProcess::isAlive)
        .map(OperatorProcess::pid).collect(Collectors.toSet()));
  }

  /**
   * The leading replica answers /readyz and, with leader election, holds the lease under an
   * identity other than the killed one's:
   * /readyz alone answers while a standby waits for the lease.
   */
  boolean ready() {
    try {
      Optional<OperatorProcess> leader = leader(killedHolder);
      return leader.isPresent() && leader.get().isReady();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The replica that leads: the lease holder's unless it is {@code notHolder}, or the only one
   * without leader election.
   */
  private Optional<OperatorProcess> leader(String notHolder) {
    if (!launch.leaderElection()) {
      return running.stream().findFirst();
    }
    return leaseHolder().filter(h -> !h.equals(notHolder))
        .flatMap(h -> running.stream().filter(p -> p.holds(h)).findFirst());
  }

  private Optional<String> leaseHolder() {
    try {
      return Optional.ofNullable(admin.leases().inNamespace(launch.namespace())
          .withName(LeaderElection.LEASE_NAME).get()).map(l -> l.getSpec().getHolderIdentity())
          .filter(h -> !h.isEmpty());
    } catch (RuntimeException apiUnavailable) {
      return Optional.empty();
    }
  }

  /** The name of the replica that holds the lease now; empty when none does. */
  Optional<String> leaderName() {
    return leader("").map(OperatorProcess::name);
  }

  /** SIGKILL of the leading replica (the only one, with one), then a new one at once. */
  void killLeader() {
    OperatorProcess leader = leader("").orElseGet(() -> running.get(0));
    killedHolder = leaseHolder().orElse("");
    leader.kill();
    running.remove(leader);
    startOne();
  }

  /**
   * With two replicas: SIGKILL of the one holding the lease while the other runs; a new replica
   * starts at once, as a ReplicaSet's would, so either may take the lease once the killed
   * one's expired (the first runs of the failover saw both). Returns what was killed.
   */
  String failOver() {
    String holder = leaseHolder().orElse("");
    OperatorProcess leader = running.stream().filter(p -> p.holds(holder)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no operator replica holds the lease "
            + LeaderElection.LEASE_NAME + " (holder: '" + holder + "')"));
    OperatorProcess standby = running.stream().filter(p -> p != leader).findFirst()
        .orElseThrow(() -> new IllegalStateException("a failover needs a second replica"));
    killedHolder = holder;
    leader.kill();
    running.remove(leader);
    startOne();
    return leader.name() + " (leader; " + standby.name() + " standing by)";
  }

  @Override
  public void close() {
    running.forEach(OperatorProcess::close);
  }
}
