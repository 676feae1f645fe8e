package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.devtools.local.LocalSampleEtcdHook;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import cloud.gardener.druid.testenv.faults.FaultInjector;
import cloud.gardener.druid.testenv.faults.FaultKind;
import cloud.gardener.druid.testenv.process.Signals;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * When the chaos run's cluster counts as healed after a fault, and the Etcd changes a round
 * makes. Healed means all of: the process the fault killed is gone (so no answer of the old
 * process counts); the Etcd satisfies the rollout predicate for the round's generation; every
 * member pod is Ready with a running container; every member's etcd answers with the same
 * leader and cluster ID; a writer got a write acknowledged after the fault ended; and after an
 * operator or API server kill or a failover, a replica other than the killed one holds the
 * leader lease and answers /readyz.
 */
final class ChaosHealing {

  private static final long POLL_MILLIS = 250;

  private final KubernetesClient client;
  private final Etcd etcd;
  private final ChaosMembers members;
  private final BooleanSupplier operatorReady;
  private final ChaosHistory history;

  ChaosHealing(KubernetesClient client, Etcd etcd, ChaosMembers members,
      BooleanSupplier operatorReady, ChaosHistory history) {
    this.client = client;
    this.etcd = etcd;
    this.members = members;
    this.operatorReady = operatorReady;
    this.history = history;
  }

  /** Creates the sample Etcd of {@code druid local up} in {@code namespace}; waits for it. */
  static Etcd createSampleEtcd(KubernetesClient client, String namespace, Duration timeout) {
    Etcd etcd = LocalSampleEtcdHook.load();
    etcd.getMetadata().setNamespace(namespace);
    EtcdBuilds.directory(etcd.getSpec().getEtcd().getVersion() == null ? "3.6"
        : etcd.getSpec().getEtcd().getVersion());
    client.resources(Etcd.class).inNamespace(namespace).resource(etcd).create();
    return client.resources(Etcd.class).inNamespace(namespace)
        .withName(etcd.getMetadata().getName())
        .waitUntilCondition(e -> e != null && RolloutCompletion.isComplete(e),
            timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * A spec change that rolls every member (etcd's snapshot count is in the member pods'
   * arguments); returns the new generation. A merge patch without a resourceVersion: the
   * operator writes the status meanwhile (the first run's read-modify-write conflicted).
   */
  static long startRollout(KubernetesClient client, Etcd etcd, int round) {
    return client.resources(Etcd.class).inNamespace(etcd.getMetadata().getNamespace())
        .withName(etcd.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"etcd\":{\"snapshotCount\":" + (75_000L + round) + "}}}")
        .getMetadata().getGeneration();
  }

  long generation() {
    return current().getMetadata().getGeneration();
  }

  private Etcd current() {
    return client.resources(Etcd.class).inNamespace(etcd.getMetadata().getNamespace())
        .withName(etcd.getMetadata().getName()).get();
  }

  /** Time from the fault's end until healed; empty when not healed within {@code timeout}. */
  Optional<Duration> await(FaultInjector.Applied applied, long generation, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int ackedBefore = history.acknowledgedWrites();
    while (System.nanoTime() < deadline) {
      if (healed(applied, generation, ackedBefore)) {
        return Optional.of(Duration.between(applied.ended(), Instant.now()));
      }
      Thread.sleep(POLL_MILLIS); // polling the API server and the members
    }
    return Optional.empty();
  }

  private boolean healed(FaultInjector.Applied applied, long generation, int ackedBefore) {
    FaultKind kind = applied.fault().kind();
    boolean killed = kind == FaultKind.ETCD_KILL || kind == FaultKind.AGENT_KILL;
    if (killed && !replaced(applied)) {
      return false;
    }
    boolean operatorHit = kind == FaultKind.OPERATOR_KILL || kind == FaultKind.APISERVER_KILL
        || kind == FaultKind.OPERATOR_FAILOVER;
    if (operatorHit && !operatorReady.getAsBoolean()) {
      return false;
    }
    try {
      Etcd now = current();
      return now.getMetadata().getGeneration() == generation
          && RolloutCompletion.isComplete(now) && membersHealthy(now.getSpec().getReplicas())
          && history.acknowledgedWrites() > ackedBefore;
    } catch (RuntimeException apiUnavailable) {
      return false;
    }
  }

  /**
   * The killed process is gone and the member runs a new one in its place: right after an
   * agent kill its etcd answers until the simulator ends the group, so answers alone prove
   * nothing (ChaosBenchIT once saw an agent kill "heal" in 0.2 s that way).
   */
  private boolean replaced(FaultInjector.Applied applied) {
    if (Signals.running(applied.pid())) {
      return false;
    }
    Optional<Long> agent = ChaosMembers.agentPid(members.pod(applied.fault().member()));
    Optional<Long> now = applied.fault().kind() == FaultKind.AGENT_KILL ? agent
        : agent.flatMap(a -> Signals.childNamed(a, "etcd"));
    return now.filter(pid -> pid != applied.pid() && Signals.running(pid)).isPresent();
  }

  private boolean membersHealthy(int replicas) {
    List<Pod> pods = members.pods();
    if (pods.size() != replicas) {
      return false;
    }
    Set<Long> leaders = new HashSet<>();
    Set<Long> clusters = new HashSet<>();
    for (Pod pod : pods) {
      if (!ChaosMembers.ready(pod) || ChaosMembers.agentPid(pod).isEmpty()) {
        return false;
      }
      Optional<ChaosMembers.EtcdView> view = members.view(pod);
      if (view.isEmpty() || view.get().leader() == 0) {
        return false;
      }
      leaders.add(view.get().leader());
      clusters.add(view.get().clusterId());
    }
    return leaders.size() == 1 && clusters.size() == 1;
  }
}
