package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Rollouts of one 3-member Etcd observed from outside: every status version and pod change is
 * recorded, and no status version may claim completion while a pod of an older revision
 * exists or a member is not ready. A client keeps writing and reading through all members.
 */
@WithOperator
@ResourceLock(ItSupport.CLIENT_LOAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RolloutIT {

  @BeforeAll
  static void createEtcd(TestNamespace ns, KubernetesClient client) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("roll");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "roll");
  }

  @Test
  @Order(1)
  void configChangeRollsOneMemberAtATimeLeaderLastWithoutFailedRequests(KubernetesClient client,
      OperatorHarness operator) throws Exception {
    Etcd before = etcd(client);
    try (RolloutRecorder recorder = RolloutRecorder.start(client, before, operator.settings());
        LoadClient load = new LoadClient(EtcdClients.endpoints(client, before), "/config",
            Duration.ofMinutes(5))) {
      Etcd changed = EtcdEdits.edit(client, "roll",
          e -> e.getSpec().getEtcd().setQuota(new Quantity("4Gi")));
      long generation = changed.getMetadata().getGeneration();
      awaitRolloutComplete(client, "roll");
      load.stop();

      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(generation)).isPositive();
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      assertThat(recorder.restartedPods()).hasSize(3);
      assertThat(load.failures()).as("slowest request " + load.slowestMillis()
          + " ms; failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      assertThat(load.requests()).isGreaterThan(10);
      for (long i = 0; i < load.written(); i += Math.max(1, load.written() / 20)) {
        assertThat(EtcdClients.get(load.client().getKVClient(), "/config/" + i)).isEqualTo("v" + i);
      }
    }
  }

  /**
   * Labels and annotations of the spec reach the running pods in place: every pod keeps its
   * uid, the rollout completes only once every pod carries them, and a removed label goes.
   */
  @Test
  @Order(2)
  void labelAndAnnotationChangesAreAppliedInPlaceWithoutARestart(KubernetesClient client,
      OperatorHarness operator) throws Exception {
    Map<String, String> uids = podUids(client);
    Etcd before = etcd(client);
    try (RolloutRecorder recorder = RolloutRecorder.start(client, before, operator.settings())) {
      Etcd changed = EtcdEdits.edit(client, "roll", e -> {
        Map<String, String> labels = new HashMap<>(e.getSpec().getLabels());
        labels.put("tier", "critical");
        e.getSpec().setLabels(labels);
        e.getSpec().setAnnotations(Map.of("team", "storage"));
      });
      Etcd done = awaitRolloutComplete(client, "roll");
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.restartedPods()).as("pods restarted by a label change").isEmpty();
      assertThat(done.getStatus().getLastOperation().getDescription()).doesNotContain("restart");
      assertThat(client.pods().withLabel(Labels.PART_OF, "roll").list().getItems()).hasSize(3)
          .allSatisfy(p -> {
            assertThat(p.getMetadata().getLabels()).containsEntry("tier", "critical");
            assertThat(p.getMetadata().getAnnotations()).containsEntry("team", "storage");
          });
    }
    EtcdEdits.edit(client, "roll", e -> {
      Map<String, String> labels = new HashMap<>(e.getSpec().getLabels());
      labels.remove("tier");
      e.getSpec().setLabels(labels);
    });
    awaitRolloutComplete(client, "roll");
    assertThat(client.pods().withLabel(Labels.PART_OF, "roll").list().getItems()).hasSize(3)
        .allSatisfy(p -> assertThat(p.getMetadata().getLabels()).doesNotContainKey("tier"));
    assertThat(podUids(client)).as("member pod uids after both changes").isEqualTo(uids);
  }

  private static Map<String, String> podUids(KubernetesClient client) {
    Map<String, String> uids = new HashMap<>();
    client.pods().withLabel(Labels.PART_OF, "roll").list().getItems()
        .forEach(p -> uids.put(p.getMetadata().getName(), p.getMetadata().getUid()));
    return uids;
  }

  @Test
  @Order(3)
  void scaleOutTo5AndBackTo3KeepsEveryKey(KubernetesClient client, OperatorHarness operator)
      throws Exception {
    try (var etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd(client)))) {
      for (int i = 0; i < 50; i++) {
        EtcdClients.put(etcdClient.getKVClient(), "/scale/" + i, "v" + i);
      }
    }
    for (int replicas : new int[] {5, 3}) {
      try (RolloutRecorder recorder = RolloutRecorder.start(client, etcd(client),
          operator.settings())) {
        Etcd changed = EtcdEdits.edit(client, "roll", e -> e.getSpec().setReplicas(replicas));
        Etcd done = awaitRolloutComplete(client, "roll");
        assertThat(recorder.violations()).isEmpty();
        assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
        assertThat(done.getStatus().getMembers()).hasSize(replicas)
            .allSatisfy(m -> assertThat(m.getRole()).isIn("Leader", "Member"));
      }
      try (var etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd(client)))) {
        assertThat(etcdClient.getClusterClient().listMember().get().getMembers()).hasSize(replicas);
        for (int i = 0; i < 50; i += 7) {
          assertThat(EtcdClients.get(etcdClient.getKVClient(), "/scale/" + i)).isEqualTo("v" + i);
        }
      }
    }
  }

  private static Etcd etcd(KubernetesClient client) {
    return client.resources(Etcd.class).withName("roll").get();
  }
}
