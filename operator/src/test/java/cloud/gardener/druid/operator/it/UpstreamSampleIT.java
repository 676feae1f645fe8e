package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Upstream's sample Etcd (examples/etcd-upstream-sample.yaml, gardener/etcd-druid's
 * examples/etcd/druid_v1alpha1_etcd.yaml field for field) applied unchanged becomes a ready
 * 3-member cluster. It references no Secret and no store, so nothing else is created.
 */
@LocalKubernetes
class UpstreamSampleIT {

  static final Duration ROLLOUT = Duration.ofMinutes(3);
  static OperatorHarness operator;
  static java.nio.file.Path logsDir;

  @BeforeAll
  static void startOperator(LocalCluster cluster, TestNamespace ns) throws Exception {
    operator = OperatorHarness.start(cluster, ns.name(), true);
    logsDir = cluster.workDir().resolve("logs");
  }

  @AfterAll
  static void stopOperator() {
    if (operator != null) {
      operator.close();
    }
  }

  @Test
  void upstreamSampleBecomesAReadyThreeMemberCluster(KubernetesClient client, TestNamespace ns)
      throws Exception {
    Etcd etcd = EtcdComponentsIT.load("etcd-upstream-sample.yaml", ns.name());
    client.resource(etcd).create();
    try {
      await().atMost(ROLLOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
          .until(() -> RolloutCompletion.isComplete(
              client.resources(Etcd.class).withName("etcd-test").get()));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("upstream's sample did not become ready"
          + Diagnostics.dump(client, "etcd-test", logsDir), e);
    }

    Etcd ready = client.resources(Etcd.class).withName("etcd-test").get();
    assertThat(ready.getStatus().getReady()).isTrue();
    assertThat(ready.getStatus().getReadyReplicas()).isEqualTo(3);
    assertThat(ready.getStatus().getLastErrors()).isNullOrEmpty();
    assertThat(ready.getStatus().getConditions())
        .anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo(ConditionTypes.READY);
          assertThat(c.getStatus()).isEqualTo(ConditionTypes.TRUE);
        });
    assertThat(ready.getStatus().getMembers()).hasSize(3)
        .extracting(m -> m.getRole()).containsOnlyOnce("Leader");
    assertThat(client.pods().withLabel("role", "test").list().getItems()).hasSize(3);

    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      EtcdClients.put(etcdClient.getKVClient(), "/upstream/sample", "works");
      assertThat(EtcdClients.get(etcdClient.getKVClient(), "/upstream/sample")).isEqualTo("works");
    }
  }
}
