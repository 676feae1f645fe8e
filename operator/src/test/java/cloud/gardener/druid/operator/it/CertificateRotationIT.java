package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.api.v1alpha1.CertificateRotation;
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
 * Peer certificates of a 3-member Etcd under continuous client writes: a renewal under the
 * same CA is served by every member without a restart (etcd reads certificate and key at every
 * handshake); a new CA declared once (a new CA bundle and a certificate of the new CA, as new
 * Secrets the spec names) is carried by the operator through the trust overlap: old and new CA
 * (a roll), the certificate of the new CA (no restart), the new CA alone (a roll), each step
 * recorded in status.certificates and announced before it is taken, the rollout predicate
 * never true before the end; then another CA written into the same Secrets in place, with the
 * operator restarted in the middle of the rotation. Zero failed client requests, every key
 * kept, no member restarted while it led.
 */
@WithOperator
class CertificateRotationIT {

  private static final Instant NOW = Instant.now();

  @Test
  void aCaChangedOnceIsCarriedThroughTheTrustOverlapByTheOperator(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    Issued ca1 = Certificates.ca("etcd-peer-ca-1", NOW.minusSeconds(300), NOW.plusSeconds(7200));
    Issued ca2 = Certificates.ca("etcd-peer-ca-2", NOW.minusSeconds(300), NOW.plusSeconds(7200));
    Issued ca3 = Certificates.ca("etcd-peer-ca-3", NOW.minusSeconds(300), NOW.plusSeconds(7200));
    List<String> names = List.of("*.crot-peer." + ns.name() + ".svc",
        "*.crot-peer." + ns.name() + ".svc.cluster.local", "127.0.0.1");
    Issued leaf1 = leaf(ca1, names);
    client.resource(caSecret("crot-peer-ca", ca1)).create();
    client.resource(leafSecret("crot-peer-server", leaf1)).create();
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("crot");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/crot");
    etcd.getSpec().getEtcd().setPeerUrlTls(peerTls("crot-peer-ca", "crot-peer-server"));
    client.resource(etcd).create();
    awaitRolloutComplete(client, "crot");
    Map<String, BigInteger> served = await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
        .until(() -> servedSerials(client, etcd, leaf1, ca1), m -> m.size() == 3);
    assertThat(served.values()).containsOnly(leaf1.certificate().getSerialNumber());
    assertThat(peerRecord(client).getPhase()).isEqualTo(CertificateRotation.PHASE_COMPLETED);
    assertThat(peerRecord(client).getTrustedCAs()).singleElement().asString()
        .startsWith("CN=etcd-peer-ca-1 (sha256 ");
    Map<String, String> uids = podUids(client, etcd);
    long started = System.nanoTime();

    try (RolloutRecorder recorder = RolloutRecorder.start(client, etcd(client),
        operator.settings());
        LoadClient load = new LoadClient(EtcdClients.endpoints(client, etcd), "/certs",
            Duration.ofMinutes(20))) {
      // 1. a new leaf of the same CA, in place: served at a next handshake, no restart (the
      // operator sees the Secret at its next resync, 30 s; the kubelet writes it 2 s later)
      Issued leaf2 = leaf(ca1, names);
      client.resource(leafSecret("crot-peer-server", leaf2)).update();
      await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() ->
          assertThat(servedSerials(client, etcd, leaf1, ca1).values())
              .hasSize(3).containsOnly(leaf2.certificate().getSerialNumber()));
      assertThat(podUids(client, etcd)).isEqualTo(uids);

      // 2. the new CA, declared once: its bundle and a certificate it issued, as new Secrets
      Issued leaf3 = leaf(ca2, names);
      client.resource(caSecret("crot-peer-ca-2", ca2)).create();
      client.resource(leafSecret("crot-peer-server-2", leaf3)).create();
      Etcd changed = EtcdEdits.edit(client, "crot", e -> e.getSpec().getEtcd()
          .setPeerUrlTls(peerTls("crot-peer-ca-2", "crot-peer-server-2")));
      awaitRolloutComplete(client, "crot", Duration.ofMinutes(10));
      long declaredSeconds = (System.nanoTime() - started) / 1_000_000_000;
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeDuringCertificateSteps()).isEmpty();
      assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
      assertThat(certificateRestarts(client)).as("two rolls of three members").isEqualTo(6);
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      assertThat(rotationSteps(client)).containsExactly("step 1 of 3", "step 2 of 3",
          "step 3 of 3", "completed");
      assertThat(peerRecord(client).getPhase()).isEqualTo(CertificateRotation.PHASE_COMPLETED);
      assertThat(peerRecord(client).getTrustedCAs()).singleElement().asString()
          .startsWith("CN=etcd-peer-ca-2 (sha256 ");
      assertThat(peerRecord(client).getServedBy()).startsWith("CN=etcd-peer-ca-2 (sha256 ");
      assertThat(servedSerials(client, etcd, leaf2, ca2).values())
          .hasSize(3).containsOnly(leaf3.certificate().getSerialNumber());
      assertThat(refusedWithTheOldCa(client, etcd, leaf2, ca2)).isTrue();

      // 3. another CA written into the same Secrets in place; the operator restarted meanwhile
      Issued leaf4 = leaf(ca3, names);
      client.resource(caSecret("crot-peer-ca-2", ca3)).update();
      client.resource(leafSecret("crot-peer-server-2", leaf4)).update();
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
          .until(() -> CertificateRotation.PHASE_TRUSTING_OLD_AND_NEW.equals(
              peerRecord(client).getPhase()));
      operator.restart();
      await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(500))
          .until(() -> CertificateRotation.PHASE_COMPLETED.equals(peerRecord(client).getPhase()));
      awaitRolloutComplete(client, "crot", Duration.ofMinutes(2));
      assertThat(peerRecord(client).getTrustedCAs()).singleElement().asString()
          .startsWith("CN=etcd-peer-ca-3 (sha256 ");
      assertThat(servedSerials(client, etcd, leaf3, ca3).values())
          .hasSize(3).containsOnly(leaf4.certificate().getSerialNumber());
      assertThat(rotationSteps(client)).containsExactly("step 1 of 3", "step 2 of 3",
          "step 3 of 3", "completed", "step 1 of 3", "step 2 of 3", "step 3 of 3", "completed");
      load.stop();
      System.out.printf("CertificateRotationIT: declared rotation done %d s after the renewal"
          + " started, in-place rotation with an operator restart done %d s after it; %d"
          + " member restarts, %d client requests, slowest %d ms, %d retried%n", declaredSeconds,
          (System.nanoTime() - started) / 1_000_000_000, certificateRestarts(client),
          load.requests(), load.slowestMillis(), load.retries());

      assertThat(load.failures()).as("slowest request " + load.slowestMillis()
          + " ms; failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      assertThat(load.requests()).isGreaterThan(10);
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeDuringCertificateSteps()).isEmpty();
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      assertThat(certificateRestarts(client)).as("four rolls of three members").isEqualTo(12);
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

  /**
   * Members deleted to restart for a changed bundle (the event of the decision: the one of the
   * start again may name "its pod was deleted" when it is created by a later reconcile).
   */
  private static int certificateRestarts(KubernetesClient client) {
    return ItSupport.events(client, "Etcd", "crot").stream()
        .filter(e -> "MemberUpdating".equals(e.getReason())
            && e.getMessage().contains("certificate changed"))
        .mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum();
  }

  /** The CA rotation events of the Etcd in order: "step N of 3", "completed". */
  private static List<String> rotationSteps(KubernetesClient client) {
    return ItSupport.events(client, "Etcd", "crot").stream()
        .filter(e -> e.getReason().startsWith("CertificateRotation"))
        .sorted(java.util.Comparator.comparing((io.fabric8.kubernetes.api.model.Event e) ->
            e.getMetadata().getCreationTimestamp()).thenComparing(e -> new BigInteger(
                e.getMetadata().getResourceVersion())))
        .map(e -> e.getReason().equals("CertificateRotationCompleted") ? "completed"
            : e.getMessage().substring(e.getMessage().indexOf("step"),
                e.getMessage().indexOf("step") + 11))
        .toList();
  }

  private static CertificateRotation peerRecord(KubernetesClient client) {
    return etcd(client).getStatus().getCertificates().stream()
        .filter(c -> CertificateRotation.TLS_PEER.equals(c.getTls())).findFirst().orElseThrow();
  }

  /** Whether a member refuses a peer that presents a certificate of the old CA. */
  private static boolean refusedWithTheOldCa(KubernetesClient client, Etcd etcd, Issued old,
      Issued trusted) throws Exception {
    Pod pod = client.pods().withLabels(EtcdLabels.memberSelector(etcd)).list().getItems().get(0);
    try (SSLSocket socket = (SSLSocket) context(old, trusted).getSocketFactory()
        .createSocket(pod.getStatus().getPodIP(), 2380)) {
      socket.setSoTimeout(5000);
      socket.startHandshake();
      socket.getOutputStream().write("GET /version HTTP/1.0\r\n\r\n".getBytes(
          StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      return socket.getInputStream().read() < 0;
    } catch (java.io.IOException e) {
      return true; // the handshake or the first read fails: the member refused the certificate
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

  private static Secret leafSecret(String name, Issued leaf) {
    return new SecretBuilder().withNewMetadata().withName(name).endMetadata()
        .addToData("tls.crt", base64(leaf.certificatePem()))
        .addToData("tls.key", base64(leaf.keyPem())).build();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static PeerTLSConfig peerTls(String caSecret, String serverSecret) {
    PeerTLSConfig tls = new PeerTLSConfig();
    KeyedSecretReference ca = new KeyedSecretReference();
    ca.setName(caSecret);
    ca.setDataKey("ca.crt");
    tls.setTlsCASecretRef(ca);
    SecretReference server = new SecretReference();
    server.setName(serverSecret);
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
