package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.KeyedSecretReference;
import cloud.gardener.druid.api.v1alpha1.PeerTLSConfig;
import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.Certificates.Issued;
import cloud.gardener.druid.api.tls.Certificates.Use;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * Peer certificates of a 3-member Etcd under continuous client writes, a renewal and a whole
 * CA rotation: a new leaf of the same CA in the same Secret is served by every member
 * without a restart (etcd reads certificate and key at every handshake); a bundle of the old
 * and the new CA, declared as a new {@code tlsCASecretRef}, is a quorum-aware roll with the
 * reason "certificate changed" (etcd reads CA bundles only at start); then leaves of the new
 * CA in place, again without a restart; the new CA alone, declared, the second roll. Zero
 * failed writes, every key kept, the predicate never complete before a roll's end.
 */
@WithOperator
class CertificateRotationIT {

  private static final Instant NOW = Instant.now();

  @Test
  void leavesRotateWithoutRestartsAndANewCaBundleRollsWithItsReason(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    Issued ca1 = Certificates.ca("etcd-peer-ca-1", NOW.minusSeconds(300), NOW.plusSeconds(7200));
    Issued ca2 = Certificates.ca("etcd-peer-ca-2", NOW.minusSeconds(300), NOW.plusSeconds(7200));
    List<String> names = List.of("*.crot-peer." + ns.name() + ".svc",
        "*.crot-peer." + ns.name() + ".svc.cluster.local", "127.0.0.1");
    Issued leaf1 = leaf(ca1, names);
    client.resource(caSecret("crot-peer-ca", ca1)).create();
    client.resource(leafSecret(leaf1)).create();
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("crot");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/crot");
    etcd.getSpec().getEtcd().setPeerUrlTls(peerTls("crot-peer-ca"));
    client.resource(etcd).create();
    awaitRolloutComplete(client, "crot");
    Map<String, BigInteger> served = await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
        .until(() -> servedSerials(client, etcd, leaf1, ca1), m -> m.size() == 3);
    assertThat(served.values()).containsOnly(leaf1.certificate().getSerialNumber());
    Map<String, String> uids = podUids(client, etcd);

    try (RolloutRecorder recorder = RolloutRecorder.start(client, etcd(client),
        operator.settings());
        LoadClient load = new LoadClient(EtcdClients.endpoints(client, etcd), "/certs",
            Duration.ofMinutes(5))) {
      // 1. a new leaf of the same CA, in place: served at the next handshake, no restart
      Issued leaf2 = leaf(ca1, names);
      client.resource(leafSecret(leaf2)).update();
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
          assertThat(servedSerials(client, etcd, leaf1, ca1).values())
              .hasSize(3).containsOnly(leaf2.certificate().getSerialNumber()));
      assertThat(podUids(client, etcd)).isEqualTo(uids);

      // 2. the old and the new CA, declared: a roll with the reason "certificate changed"
      client.resource(caSecret("crot-peer-ca-2", ca1, ca2)).create();
      Etcd changed = EtcdEdits.edit(client, "crot",
          e -> e.getSpec().getEtcd().setPeerUrlTls(peerTls("crot-peer-ca-2")));
      awaitRolloutComplete(client, "crot");
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.restartedPods()).hasSize(3);
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      assertThat(ItSupport.events(client, "Etcd", "crot")).anySatisfy(e -> assertThat(
          e.getMessage()).contains("certificate changed"));
      Map<String, String> rolled = podUids(client, etcd);

      // 3. leaves of the new CA, in place: every member trusts it already, no restart
      Issued leaf3 = leaf(ca2, names);
      client.resource(leafSecret(leaf3)).update();
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
          assertThat(servedSerials(client, etcd, leaf2, ca2).values())
              .hasSize(3).containsOnly(leaf3.certificate().getSerialNumber()));
      try (var etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
        EtcdClients.put(etcdClient.getKVClient(), "/after-new-leaves", "ok"); // peers agree
      }
      assertThat(podUids(client, etcd)).isEqualTo(rolled);

      // 4. the new CA alone, declared: the second roll; a certificate of the old CA is refused
      client.resource(caSecret("crot-peer-ca-3", ca2)).create();
      Etcd last = EtcdEdits.edit(client, "crot",
          e -> e.getSpec().getEtcd().setPeerUrlTls(peerTls("crot-peer-ca-3")));
      awaitRolloutComplete(client, "crot");
      assertThat(recorder.completeVersions(last.getMetadata().getGeneration())).isPositive();
      assertThat(podUids(client, etcd).values()).doesNotContainAnyElementsOf(rolled.values());
      assertThat(ItSupport.events(client, "Etcd", "crot").stream()
          .filter(e -> "MemberRestarted".equals(e.getReason())
              && e.getMessage().contains("certificate changed"))
          .mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum()).isEqualTo(6);
      assertThat(servedSerials(client, etcd, leaf3, ca2).values())
          .containsOnly(leaf3.certificate().getSerialNumber());
      load.stop();

      assertThat(load.failures()).as("slowest request " + load.slowestMillis()
          + " ms; failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      assertThat(load.requests()).isGreaterThan(10);
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      try (var etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
        for (long i = 0; i < load.written(); i++) {
          assertThat(EtcdClients.get(etcdClient.getKVClient(), "/certs/" + i)).isEqualTo("v" + i);
        }
      }
      assertThat(client.pods().withLabels(EtcdLabels.memberSelector(etcd)).list().getItems())
          .allSatisfy(p -> assertThat(p.getStatus().getContainerStatuses())
              .allSatisfy(c -> assertThat(c.getRestartCount()).isZero()));
    }
  }

  private static Issued leaf(Issued ca, List<String> names) {
    return Certificates.issue(ca, "etcd-peer", names, Use.PEER, NOW.minusSeconds(300),
        NOW.plusSeconds(7200));
  }

  private static Secret caSecret(String name, Issued... cas) {
    String bundle = String.join("", java.util.Arrays.stream(cas).map(Issued::certificatePem)
        .toList());
    return new SecretBuilder().withNewMetadata().withName(name).endMetadata()
        .addToData("ca.crt", base64(bundle)).build();
  }

  private static Secret leafSecret(Issued leaf) {
    return new SecretBuilder().withNewMetadata().withName("crot-peer-server").endMetadata()
        .addToData("tls.crt", base64(leaf.certificatePem()))
        .addToData("tls.key", base64(leaf.keyPem())).build();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static PeerTLSConfig peerTls(String caSecret) {
    PeerTLSConfig tls = new PeerTLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName(caSecret);
    ca.setDataKey("ca.crt");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName("crot-peer-server");
    tls.setServerTLSSecretRef(server);
    return tls;
  }

  private static Map<String, String> podUids(KubernetesClient client, Etcd etcd) {
    return client.pods().withLabels(EtcdLabels.memberSelector(etcd)).list().getItems().stream()
        .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
  }

  /** The serial of the certificate each member's peer URL serves at a new handshake. */
  private static Map<String, BigInteger> servedSerials(KubernetesClient client, Etcd etcd,
      Issued identity, Issued trusted) throws Exception {
    SSLContext context = context(identity, trusted);
    Map<String, BigInteger> serials = new java.util.TreeMap<>();
    for (Pod pod : client.pods().withLabels(EtcdLabels.memberSelector(etcd)).list().getItems()) {
      try (SSLSocket socket = (SSLSocket) context.getSocketFactory()
          .createSocket(pod.getStatus().getPodIP(), 2380)) {
        socket.setSoTimeout(5000);
        socket.startHandshake();
        serials.put(pod.getMetadata().getName(), ((X509Certificate) socket.getSession()
            .getPeerCertificates()[0]).getSerialNumber());
      }
    }
    return serials;
  }

  private static SSLContext context(Issued identity, Issued trusted) throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("me", identity.key(), new char[0],
        new X509Certificate[] {identity.certificate()});
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, new char[0]);
    KeyStore cas = KeyStore.getInstance("PKCS12");
    cas.load(null, null);
    cas.setCertificateEntry("ca", trusted.certificate());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(cas);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return context;
  }

  private static Etcd etcd(KubernetesClient client) {
    return client.resources(Etcd.class).withName("crot").get();
  }
}
