package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.PeerTLSConfig;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The operator on a real API server: every managed object is created for an Etcd with the
 * upstream names, status is written by the operator, invalid specs leave the cluster alone,
 * and deletion removes everything.
 */
@WithOperator
class EtcdComponentsIT {

  @Test
  void createsEveryComponentAndMemberWithUpstreamNamesAndDeletesThemWithTheEtcd(
      KubernetesClient client, TestNamespace ns, OperatorHarness operator) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("main");
    client.resource(etcd).create();

    await().ignoreExceptions().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(client.serviceAccounts().withName("main").get()).isNotNull();
      assertThat(client.rbac().roles().withName("druid.gardener.cloud:etcd:main").get()).isNotNull();
      assertThat(client.rbac().roleBindings().withName("druid.gardener.cloud:etcd:main").get()).isNotNull();
      assertThat(client.services().withName("main-client").get()).isNotNull();
      assertThat(client.services().withName("main-peer").get().getSpec().getClusterIP()).isEqualTo("None");
      assertThat(client.configMaps().withName("main-config").get().getData()).containsKey("etcd.conf.yaml");
      assertThat(client.policy().v1().podDisruptionBudget().withName("main").get()
          .getSpec().getMinAvailable().getIntVal()).isEqualTo(2);
      assertThat(client.leases().list().getItems()).extracting(l -> l.getMetadata().getName())
          .contains("main-0", "main-1", "main-2", "main-full-snap", "main-delta-snap");
      assertThat(client.persistentVolumeClaims().list().getItems())
          .extracting(p -> p.getMetadata().getName())
          .containsExactlyInAnyOrder("main-main-0", "main-main-1", "main-main-2");
      assertThat(client.pods().list().getItems()).extracting(p -> p.getMetadata().getName())
          .containsExactlyInAnyOrder("main-0", "main-1", "main-2");
    });

    Etcd created = client.resources(Etcd.class).withName("main").get();
    String revision = MemberPodBuilder.revision(created, operator.settings());
    assertThat(client.pods().list().getItems())
        .allSatisfy(p -> assertThat(p.getMetadata().getLabels()).containsEntry(Labels.MEMBER_REVISION, revision));
    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      Etcd e = client.resources(Etcd.class).withName("main").get();
      assertThat(e.getStatus()).isNotNull();
      assertThat(e.getStatus().getObservedGeneration()).isEqualTo(1L);
      assertThat(e.getStatus().getMembers()).hasSize(3);
      assertThat(e.getStatus().getSelector()).contains("app.kubernetes.io/part-of=main");
      assertThat(e.getMetadata().getFinalizers()).contains("druid.gardener.cloud/etcd-druid");
    });

    client.resources(Etcd.class).withName("main").delete();
    await().ignoreExceptions().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
      assertThat(client.resources(Etcd.class).withName("main").get()).isNull();
      assertThat(client.pods().list().getItems()).isEmpty();
      assertThat(client.persistentVolumeClaims().list().getItems()).isEmpty();
      assertThat(client.services().list().getItems()).isEmpty();
      assertThat(client.configMaps().withName("main-config").get()).isNull();
    });
  }

  @Test
  void aMissingTlsSecretIsReportedAndNothingIsRolledOut(KubernetesClient client, TestNamespace ns)
      throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("tls");
    PeerTLSConfig tls = new PeerTLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName("missing-ca");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName("missing-server");
    tls.setServerTLSSecretRef(server);
    etcd.getSpec().getEtcd().setPeerUrlTls(tls);
    client.resource(etcd).create();

    await().ignoreExceptions().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      Etcd e = client.resources(Etcd.class).withName("tls").get();
      assertThat(e.getStatus()).isNotNull();
      assertThat(e.getStatus().getLastErrors()).anySatisfy(err -> {
        assertThat(err.getCode()).isEqualTo("ERR_SECRET_NOT_FOUND");
        assertThat(err.getDescription()).contains("spec.etcd.peerUrlTls.tlsCASecretRef", "missing-ca");
      });
      assertThat(e.getStatus().getLastOperation().getState()).isEqualTo("Error");
      assertThat(e.getStatus().getObservedGeneration()).isNull();
    });
    assertThat(client.pods().withName("tls-0").get()).isNull();
    client.resources(Etcd.class).withName("tls").delete();
  }
}
