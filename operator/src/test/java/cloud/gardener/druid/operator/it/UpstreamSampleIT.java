package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Upstream's sample Etcd (examples/etcd-upstream-sample.yaml, gardener/etcd-druid's
 * examples/etcd/druid_v1alpha1_etcd.yaml field for field) applied unchanged becomes a ready
 * 3-member cluster. It references no Secret and no store, so nothing else is created. The
 * upstream fields it sets that this operator does not act on are reported (a condition and a
 * Warning event), not dropped silently.
 */
@WithOperator
class UpstreamSampleIT {

  @Test
  void upstreamSampleBecomesAReadyThreeMemberCluster(KubernetesClient client, TestNamespace ns)
      throws Exception {
    Etcd etcd = ItSupport.load("etcd-upstream-sample.yaml", ns.name());
    client.resource(etcd).create();
    Etcd ready = ItSupport.awaitRolloutComplete(client, "etcd-test", Duration.ofMinutes(3));

    assertThat(ready.getStatus().getReady()).isTrue();
    assertThat(ready.getStatus().getReadyReplicas()).isEqualTo(3);
    assertThat(ready.getStatus().getLastErrors()).isNullOrEmpty();
    assertThat(ready.getStatus().getConditions())
        .anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo(ConditionTypes.READY);
          assertThat(c.getStatus()).isEqualTo(ConditionTypes.TRUE);
        });
    assertThat(ready.getStatus().getConditions()).as("the sample sets no field ignored here")
        .noneMatch(c -> ConditionTypes.UPSTREAM_FIELDS_IGNORED.equals(c.getType()));
    assertThat(client.pods().withLabel("role", "test").list().getItems()).allSatisfy(pod -> {
      var container = pod.getSpec().getContainers().get(0);
      assertThat(container.getArgs()).as("spec.backup.leaderElection reaches the agent")
          .contains("--reelection-period=5s", "--etcd-connection-timeout-leader-election=5s");
      assertThat(container.getResources().getRequests()).as("etcd's and the sidecar's requests")
          .containsEntry("cpu", new Quantity("123m"));
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
