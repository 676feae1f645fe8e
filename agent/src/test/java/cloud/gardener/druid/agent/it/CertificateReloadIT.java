package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.Certificates.Issued;
import cloud.gardener.druid.api.tls.Certificates.Use;
import cloud.gardener.druid.testenv.node.VolumeFiles;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which certificate files the real etcd (the version the project builds) and the agent read
 * again when a kubelet swaps a mounted Secret ({@code ..data} symlink): etcd reads its server
 * and peer certificate and key at every handshake, its CA bundles only at start; the agent
 * API reads all three again (at most 10 s later). No process restarts for any of it.
 */
class CertificateReloadIT {

  private static final String HOST = "127.0.0.1";
  private static final Instant NOW = Instant.now();
  private static final int REFUSED = -1;

  @TempDir
  Path work;

  @Test
  void etcdServesANewLeafAtTheNextHandshakeButKeepsItsCaBundleUntilRestart() throws Exception {
    Issued ca1 = Certificates.ca("etcd-ca-1", NOW.minusSeconds(60), NOW.plusSeconds(3600));
    Issued ca2 = Certificates.ca("etcd-ca-2", NOW.minusSeconds(60), NOW.plusSeconds(3600));
    Issued leaf1 = leaf(ca1);
    Issued leaf2 = leaf(ca1);
    Issued operator1 = operator(ca1);
    Issued operator2 = operator(ca2);
    Path tlsDir = work.resolve("tls");
    VolumeFiles.write(tlsDir, files(List.of(ca1), leaf1));
    int clientPort = LoopbackPorts.on(HOST);
    int peerPort = LoopbackPorts.on(HOST);
    int serverPort = LoopbackPorts.on(HOST);
    List<String> args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=https://" + HOST + ":" + peerPort, work.resolve("data/new.etcd"));
    args.addAll(AgentArgs.localStore(work.resolve("backups")));
    args.remove(AgentArgs.INSECURE_API);
    args.addAll(List.of("--client-tls-dir=" + tlsDir, "--peer-tls-dir=" + tlsDir,
        "--server-tls-dir=" + tlsDir));
    URI etcd = URI.create("https://" + HOST + ":" + clientPort + "/metrics");
    URI peer = URI.create("https://" + HOST + ":" + peerPort + "/version");
    URI api = URI.create("https://" + HOST + ":" + serverPort + AgentApi.CONFIG);

    Path logDir = AgentProcess.logDir("CertificateReloadIT");
    try (AgentProcess agent = new AgentProcess(args, HOST, serverPort,
        logDir.resolve("agent.log"), context(operator1, ca1))) {
      agent.awaitReady(Duration.ofSeconds(90));
      assertThat(servedSerial(etcd, leaf1, ca1)).isEqualTo(serial(leaf1));
      String etcdStart = startTime(etcd, leaf1, ca1);

      // a new leaf of the same CA: etcd's client and peer URLs serve it at once, the agent
      // API within its 10-s recheck; the agent keeps working with what it loaded
      VolumeFiles.write(tlsDir, files(List.of(ca1), leaf2));
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
        assertThat(servedSerial(etcd, leaf1, ca1)).isEqualTo(serial(leaf2));
        assertThat(servedSerial(peer, leaf1, ca1)).isEqualTo(serial(leaf2));
      });
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
          assertThat(servedSerial(api, operator1, ca1)).isEqualTo(serial(leaf2)));
      assertThat(agent.post(AgentApi.SNAPSHOT_FULL).statusCode()).isEqualTo(200);
      try (MemberClient client = new MemberClient(URI.create("https://" + HOST + ":"
          + clientPort), Optional.of(new TlsFiles(tlsDir.resolve("ca.crt"),
          tlsDir.resolve("tls.crt"), tlsDir.resolve("tls.key"))))) {
        SingleMemberAgentIT.putKeys(client, "/rotated/", 0, 10);
        assertThat(countPrefix(client, "/rotated/")).isEqualTo(10);
      }

      // a CA bundle of another CA: etcd still trusts the CA it started with (client and peer
      // URLs), the agent API trusts the new one
      VolumeFiles.write(tlsDir, files(List.of(ca2), leaf2));
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
          assertThat(status(api, operator2, ca1)).isEqualTo(200));
      assertThat(statusOrRefused(api, operator1, ca1)).as("the old CA's caller").isIn(REFUSED, 401, 403);
      assertThat(status(etcd, leaf1, ca1)).isEqualTo(200);
      assertThat(status(peer, leaf1, ca1)).isEqualTo(200);
      assertThat(statusOrRefused(etcd, operator2, ca1)).isEqualTo(REFUSED);
      assertThat(statusOrRefused(peer, operator2, ca1)).isEqualTo(REFUSED);
      assertThat(startTime(etcd, leaf1, ca1)).isEqualTo(etcdStart);
      assertThat(agent.process().isAlive()).isTrue();
      assertThat(agent.log()).contains("reloaded the TLS files of the agent API");
    }
  }

  private static Issued leaf(Issued ca) {
    return Certificates.issue(ca, "etcd-test", List.of(HOST, "localhost"), Use.PEER,
        NOW.minusSeconds(60), NOW.plusSeconds(3600));
  }

  private static Issued operator(Issued ca) {
    return Certificates.issue(ca, AgentApi.OPERATOR_CLIENT_NAME, List.of(), Use.CLIENT,
        NOW.minusSeconds(60), NOW.plusSeconds(3600));
  }

  private static Map<String, byte[]> files(List<Issued> cas, Issued leaf) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("ca.crt", String.join("", cas.stream().map(Issued::certificatePem).toList())
        .getBytes(StandardCharsets.UTF_8));
    files.put("tls.crt", leaf.certificatePem().getBytes(StandardCharsets.UTF_8));
    files.put("tls.key", leaf.keyPem().getBytes(StandardCharsets.UTF_8));
    return files;
  }

  private static BigInteger serial(Issued issued) {
    return issued.certificate().getSerialNumber();
  }

  /** The serial of the certificate served at a new handshake (a new client each time). */
  private static BigInteger servedSerial(URI uri, Issued identity, Issued trusted)
      throws Exception {
    HttpResponse<String> response = send(uri, identity, trusted);
    return ((X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0])
        .getSerialNumber();
  }

  private static int status(URI uri, Issued identity, Issued trusted) throws Exception {
    return send(uri, identity, trusted).statusCode();
  }

  /** The status, or {@link #REFUSED} when the server refused the handshake. */
  private static int statusOrRefused(URI uri, Issued identity, Issued trusted) {
    try {
      return status(uri, identity, trusted);
    } catch (Exception e) {
      return REFUSED;
    }
  }

  private static String startTime(URI metrics, Issued identity, Issued trusted)
      throws Exception {
    Matcher m = Pattern.compile("(?m)^process_start_time_seconds (\\S+)$")
        .matcher(send(metrics, identity, trusted).body());
    assertThat(m.find()).isTrue();
    return m.group(1);
  }

  private static HttpResponse<String> send(URI uri, Issued identity, Issued trusted)
      throws Exception {
    HttpClient client = HttpClient.newBuilder().sslContext(context(identity, trusted))
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
        BodyHandlers.ofString());
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
}
