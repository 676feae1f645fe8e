package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agents of an Etcd serve their API over mutual TLS ({@code spec.backup.tls}); the
 * operator builds its TLS context from that Etcd's CA and client secrets, so it can read the
 * members' status and move leadership: the cluster becomes Ready and a rollout completes.
 * The server certificate names only the members' DNS names, never the pod IPs the operator
 * dials.
 */
@WithOperator
class AgentTlsIT {

  static TestCertificates certs;

  @BeforeAll
  static void createSecrets(LocalCluster cluster, TestNamespace ns, KubernetesClient client)
      throws Exception {
    certs = TestCertificates.ca(cluster.workDir().resolve("certs").resolve(ns.name())
        .resolve("atls"));
    String domain = "atls-peer." + ns.name() + ".svc";
    certs.issue("agent-server", List.of("DNS:*." + domain, "DNS:*." + domain + ".cluster.local"));
    certs.issue("operator", List.of("DNS:etcd-druid"));
    client.resource(certs.caSecret("atls-ca")).create();
    client.resource(certs.identitySecret("atls-agent-server", "agent-server")).create();
    client.resource(certs.identitySecret("atls-operator", "operator")).create();
  }

  @Test
  void theOperatorTalksToAgentsOverMutualTlsAndRollsTheCluster(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("atls");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/atls");
    etcd.getSpec().getBackup().setTls(agentTls());
    client.resource(etcd).create();
    awaitRolloutComplete(client, "atls");

    Etcd ready = client.resources(Etcd.class).withName("atls").get();
    assertThat(ready.getStatus().getMembers()).hasSize(3)
        .extracting(m -> m.getRole()).containsOnlyOnce("Leader");
    String podIp = client.pods().withName("atls-0").get().getStatus().getPodIP();
    assertThat(withoutClientCertificate("https://" + podIp + ":8080/member/status"))
        .as("an agent answers state reads only to holders of a client certificate")
        .isEqualTo(401);
    assertThat(withoutClientCertificate("https://" + podIp + ":8080/readyz"))
        .as("probes need no client certificate").isEqualTo(200);

    try (RolloutRecorder recorder = RolloutRecorder.start(client, ready, operator.settings())) {
      Etcd changed = EtcdEdits.edit(client, "atls",
          e -> e.getSpec().getEtcd().setQuota(new Quantity("4Gi")));
      awaitRolloutComplete(client, "atls");
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.restartedPods()).hasSize(3);
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
    }
  }

  private static TLSConfig agentTls() {
    TLSConfig tls = new TLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName("atls-ca");
    ca.setDataKey("ca.crt");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName("atls-agent-server");
    tls.setServerTLSSecretRef(server);
    SecretReference operatorIdentity = new SecretReference();
    operatorIdentity.setName("atls-operator");
    tls.setClientTLSSecretRef(operatorIdentity);
    return tls;
  }

  /**
   * The HTTP status of a GET that presents no client certificate (and, being a test of the
   * server's client check, does not check the server).
   */
  private static int withoutClientCertificate(String url) throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {new X509ExtendedTrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType, Socket s) {
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType, Socket s) {
      }

      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine e) {
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine e) {
      }

      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {
      }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    }}, null);
    HttpClient http = HttpClient.newBuilder().sslContext(context)
        .connectTimeout(Duration.ofSeconds(5)).build();
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
        .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
