package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.PemKeys;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.controlplane.InsecureHttp;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
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
    Etcd ready = awaitRolloutComplete(client, "atls");

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

  /**
   * Without {@code spec.backup.tls} the agents serve the operator's own per-Etcd CA: the
   * operator's calls succeed (the member becomes ready and the rollout completes), callers
   * without its certificate are refused, and no key of that Secret is in any pod log.
   */
  @Test
  void withoutSpecBackupTlsTheAgentsAcceptOnlyTheOperatorsCertificate(KubernetesClient client,
      TestNamespace ns, LocalCluster cluster) throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("aauth");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/aauth");
    etcd.getSpec().getBackup().setTls(null);
    client.resource(etcd).create();
    ItSupport.awaitRolloutComplete(client, "aauth");

    Secret secret = client.secrets().withName("aauth-agent-api-tls").get();
    assertThat(secret.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("Etcd");
      assertThat(o.getName()).isEqualTo("aauth");
    });
    Map<String, String> pem = new java.util.HashMap<>();
    secret.getData().forEach((k, v) -> pem.put(k, new String(Base64.getDecoder().decode(v),
        StandardCharsets.US_ASCII)));
    String base = "https://" + client.pods().withName("aauth-0").get().getStatus().getPodIP()
        + ":8080";

    assertThat(call(base + "/member/status", "GET", null)).isEqualTo(401);
    assertThat(call(base + "/readyz", "GET", null)).isEqualTo(200);
    Certificates.Issued ca = new Certificates.Issued(
        PemKeys.certificates(bytes(pem, "ca.crt"), "ca.crt").get(0),
        PemKeys.privateKey(bytes(pem, "ca.key"), "ca.key"));
    Certificates.Issued etcdClient = Certificates.issue(ca, "etcd-client", List.of(),
        Certificates.Use.CLIENT, Instant.now().minusSeconds(300), Instant.now().plusSeconds(3600));
    assertThat(call(base + "/member/remove?id=1", "POST", etcdClient))
        .as("a certificate of the same CA naming another client").isEqualTo(403);
    Certificates.Issued operatorIdentity = new Certificates.Issued(
        PemKeys.certificates(bytes(pem, "client.crt"), "client.crt").get(0),
        PemKeys.privateKey(bytes(pem, "client.key"), "client.key"));
    assertThat(call(base + "/member/status", "GET", operatorIdentity)).isEqualTo(200);

    List<String> keyLines = List.of("ca.key", "client.key", "tls.key").stream()
        .map(k -> pem.get(k).lines().skip(1).findFirst().orElseThrow()).toList();
    try (var logs = Files.walk(cluster.workDir().resolve("logs"))) {
      for (Path log : logs.filter(Files::isRegularFile).toList()) {
        String text = Files.readString(log, StandardCharsets.ISO_8859_1);
        assertThat(keyLines).as("keys in " + log).noneMatch(text::contains);
      }
    }
  }

  private static byte[] bytes(Map<String, String> pem, String key) {
    return pem.get(key).getBytes(StandardCharsets.US_ASCII);
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

  /** The HTTP status of a GET that presents no client certificate. */
  private static int withoutClientCertificate(String url) throws Exception {
    return call(url, "GET", null);
  }

  /**
   * The HTTP status of a call presenting {@code identity} (none when null); being a test of
   * the server's client check, it does not check the server.
   */
  private static int call(String url, String method, Certificates.Issued identity)
      throws Exception {
    KeyManager[] keys = null;
    if (identity != null) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("id", identity.key(), new char[0],
          new X509Certificate[] {identity.certificate()});
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(store, new char[0]);
      keys = kmf.getKeyManagers();
    }
    HttpClient http = HttpClient.newBuilder().sslContext(InsecureHttp.trustingEveryServer(keys))
        .connectTimeout(Duration.ofSeconds(5)).build();
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .method(method, HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
