package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.ROLLOUT;
import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.LeaderElection;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two operator replicas with leader election against one control plane: only the holder of
 * the lease acts (every event on the Etcd names it as reporting instance); when it is stopped
 * in the middle of a rollout, right after it took a member down, it releases the lease, the
 * other replica takes it within the lease duration and completes the rollout without an early
 * completion.
 */
@WithOperator(replicas = 2, leaderElection = true)
class LeaderElectionIT {

  /** The operator's default timing, as the chart deploys it. */
  private static final LeaderElection.Timing TIMING = LeaderElection.Timing.DEFAULT;
  /** Until a lease that nobody released expires, and the candidate's next retry (≤2.2×). */
  private static final Duration FIRST_ELECTION = TIMING.leaseDuration()
      .plus(TIMING.retryPeriod().multipliedBy(3));

  @Test
  void onlyTheLeaderActsAndTheOtherReplicaFinishesItsRolloutAfterItStops(TestNamespace ns,
      KubernetesClient client, OperatorReplicas replicas) throws Exception {
    OperatorHarness first = replicas.get(0);
    OperatorHarness second = replicas.get(1);
    assertThat(first.identity()).isNotEqualTo(second.identity());
    await().atMost(FIRST_ELECTION).ignoreExceptions()
        .until(() -> Set.of(first.identity(), second.identity()).contains(holder(client, ns)));
    OperatorHarness leader = holder(client, ns).equals(first.identity()) ? first : second;
    OperatorHarness standby = leader == first ? second : first;
    OperatorSettings settings = leader.settings();

    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("elect");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/elect");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "elect");
    assertThat(eventsByInstance(client)).containsOnlyKeys(leader.identity());

    try (RolloutRecorder recorder = RolloutRecorder.start(client,
        client.resources(Etcd.class).withName("elect").get(), settings)) {
      Etcd changed = EtcdEdits.edit(client, "elect",
          e -> e.getSpec().getEtcd().setQuota(new Quantity("4Gi")));
      await().atMost(ROLLOUT).pollInterval(Duration.ofMillis(100))
          .until(() -> events(client).stream().anyMatch(e -> "MemberUpdating".equals(e.getReason())));
      leader.close();
      long stoppedAt = System.nanoTime();
      List<Event> beforeStop = events(client);
      assertThat(beforeStop).extracting(Event::getReportingInstance)
          .as("the standby did nothing while the other replica led")
          .containsOnly(leader.identity());

      // a stopped leader releases the lease: the standby takes it at its next retry, before
      // the lease would have expired
      await().atMost(TIMING.leaseDuration()).pollInterval(Duration.ofMillis(200))
          .ignoreExceptions().until(() -> standby.identity().equals(holder(client, ns)));
      Duration takeover = Duration.ofNanos(System.nanoTime() - stoppedAt);
      System.out.println("leader stopped -> lease taken over by the standby: " + takeover.toMillis() + " ms");
      awaitRolloutComplete(client, "elect");

      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.restartedPods()).hasSize(3);
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      Set<String> earlier = beforeStop.stream().map(e -> e.getMetadata().getName())
          .collect(Collectors.toSet());
      assertThat(events(client)).filteredOn(e -> !earlier.contains(e.getMetadata().getName()))
          .extracting(Event::getReportingInstance)
          .as("after the stop only the new leader acts").containsOnly(standby.identity());
    }
  }

  private static String holder(KubernetesClient client, TestNamespace ns) {
    return client.leases().inNamespace(ns.name()).withName(LeaderElection.LEASE_NAME).get()
        .getSpec().getHolderIdentity();
  }

  private static List<Event> events(KubernetesClient client) {
    return ItSupport.events(client, "Etcd", "elect");
  }

  private static Map<String, Long> eventsByInstance(KubernetesClient client) {
    return events(client).stream()
        .collect(Collectors.groupingBy(Event::getReportingInstance, Collectors.counting()));
  }
}
