package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.PeerTLSConfig;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Turning peer TLS on for a running 3-member cluster is an ordinary quorum-aware rollout: one
 * member at a time, the leader last, no failed client request, no early completion, and
 * afterwards etcd's membership lists every peer URL with https.
 */
@WithOperator
@ResourceLock(ItSupport.CLIENT_LOAD)
class PeerTlsRolloutIT {

  @Test
  void enablingPeerTlsRollsMemberByMemberAndSwitchesEveryPeerUrlToHttps(
      KubernetesClient client, TestNamespace ns, LocalCluster cluster, OperatorHarness operator)
      throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("ptls");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/ptls");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "ptls");
    createPeerSecrets(client, ns, cluster, "ptls");
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      assertThat(peerUrls(etcdClient)).allMatch(u -> u.getScheme().equals("http"));
      for (int i = 0; i < 50; i++) {
        EtcdClients.put(etcdClient.getKVClient(), "/before-tls/" + i, "v" + i);
      }
    }

    try (RolloutRecorder recorder = RolloutRecorder.start(client, etcd(client),
        operator.settings());
        LoadClient load = new LoadClient(EtcdClients.endpoints(client, etcd), "/tls-roll",
            Duration.ofMinutes(5))) {
      Etcd changed = EtcdEdits.edit(client, "ptls",
          e -> e.getSpec().getEtcd().setPeerUrlTls(peerTls("ptls")));
      awaitRolloutComplete(client, "ptls");
      load.stop();

      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      assertThat(recorder.restartedPods()).hasSize(3);
      assertThat(load.failures()).as("slowest request " + load.slowestMillis()
          + " ms; failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      assertThat(load.requests()).isGreaterThan(10);
    }

    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      assertThat(peerUrls(etcdClient)).hasSize(3).allSatisfy(u -> {
        assertThat(u.getScheme()).isEqualTo("https");
        assertThat(u.getHost()).endsWith(".ptls-peer." + ns.name() + ".svc");
      });
      for (int i = 0; i < 50; i++) {
        assertThat(EtcdClients.get(etcdClient.getKVClient(), "/before-tls/" + i)).isEqualTo("v" + i);
      }
    }
  }

  /** A single member has no other member to update through: its agent uses its own etcd. */
  @Test
  void aSingleMemberReRegistersItsPeerUrlThroughItsOwnEtcd(KubernetesClient client,
      TestNamespace ns, LocalCluster cluster) throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("ptls1");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/ptls1");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "ptls1");
    createPeerSecrets(client, ns, cluster, "ptls1");
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      EtcdClients.put(etcdClient.getKVClient(), "/single", "kept");
    }
    EtcdEdits.edit(client, "ptls1", e -> e.getSpec().getEtcd().setPeerUrlTls(peerTls("ptls1")));
    awaitRolloutComplete(client, "ptls1");
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
          assertThat(peerUrls(etcdClient)).singleElement()
              .satisfies(u -> assertThat(u.getScheme()).isEqualTo("https")));
      assertThat(EtcdClients.get(etcdClient.getKVClient(), "/single")).isEqualTo("kept");
    }
  }

  private static List<URI> peerUrls(Client etcdClient) throws Exception {
    return etcdClient.getClusterClient().listMember().get(10, TimeUnit.SECONDS).getMembers()
        .stream().flatMap(m -> m.getPeerURIs().stream()).toList();
  }

  /**
   * One peer certificate for every member: the members' DNS names and 127.0.0.1, the source
   * address of every connection between pod processes on loopback, which etcd checks against
   * the SANs of a peer's client certificate.
   */
  private static void createPeerSecrets(KubernetesClient client, TestNamespace ns,
      LocalCluster cluster, String etcd) throws Exception {
    TestCertificates certs = TestCertificates.ca(
        cluster.workDir().resolve("certs").resolve(ns.name()).resolve(etcd + "-peer"));
    String domain = etcd + "-peer." + ns.name() + ".svc";
    certs.issue("peer", List.of("DNS:*." + domain, "DNS:*." + domain + ".cluster.local",
        "IP:127.0.0.1"));
    client.resource(certs.caSecret(etcd + "-peer-ca")).create();
    client.resource(certs.identitySecret(etcd + "-peer-server", "peer")).create();
  }

  private static PeerTLSConfig peerTls(String etcd) {
    PeerTLSConfig tls = new PeerTLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName(etcd + "-peer-ca");
    ca.setDataKey("ca.crt");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName(etcd + "-peer-server");
    tls.setServerTLSSecretRef(server);
    return tls;
  }

  private static Etcd etcd(KubernetesClient client) {
    return client.resources(Etcd.class).withName("ptls").get();
  }
}
