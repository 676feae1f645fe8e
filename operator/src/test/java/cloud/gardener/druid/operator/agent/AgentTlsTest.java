package cloud.gardener.druid.operator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.api.tls.PemKeys;
import cloud.gardener.druid.operator.it.TestCertificates;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's side of the agent API's mutual TLS against a JDK HTTPS server that requires
 * client certificates: the Etcd's CA and a server certificate naming the Etcd's peer domain
 * (not the dialled IP) are trusted, the client certificate is presented (PKCS#8 or PKCS#1).
 */
class AgentTlsTest {

  @TempDir
  static Path dir;
  static TestCertificates ca;
  static TestCertificates otherCa;

  private HttpsServer server;

  @BeforeAll
  static void certificates() throws Exception {
    ca = TestCertificates.ca(dir.resolve("ca"));
    ca.issue("agent", List.of("DNS:*.e-peer.ns.svc"));
    ca.issue("elsewhere", List.of("DNS:*.other-peer.ns.svc"));
    ca.issue("operator", List.of("DNS:etcd-druid"));
    otherCa = TestCertificates.ca(dir.resolve("other"));
    otherCa.issue("agent", List.of("DNS:*.e-peer.ns.svc"));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void trustsTheEtcdsCaForAServerNamedInItsPeerDomainAndPresentsTheClientCertificate()
      throws Exception {
    int port = serve(ca, "agent");
    assertThat(get(port, operatorContext("e-peer.ns.svc", ca.file("operator.key")))).isEqualTo(200);
  }

  @Test
  void acceptsAPkcs1ClientKey() throws Exception {
    Path pkcs1 = dir.resolve("operator-pkcs1.key");
    Process p = new ProcessBuilder("openssl", "rsa", "-traditional", "-in",
        ca.file("operator.key").toString(), "-out", pkcs1.toString()).redirectErrorStream(true).start();
    assertThat(p.waitFor()).isZero();
    assertThat(Files.readString(pkcs1)).contains("BEGIN RSA PRIVATE KEY");
    int port = serve(ca, "agent");
    assertThat(get(port, operatorContext("e-peer.ns.svc", pkcs1))).isEqualTo(200);
  }

  @Test
  void refusesAServerCertificateOfAnotherCa() throws Exception {
    int port = serve(otherCa, "agent");
    assertThatThrownBy(() -> get(port, operatorContext("e-peer.ns.svc", ca.file("operator.key"))))
        .isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void refusesAServerCertificateNamingAnotherEtcd() throws Exception {
    int port = serve(ca, "elsewhere");
    assertThatThrownBy(() -> get(port, operatorContext("e-peer.ns.svc", ca.file("operator.key"))))
        .isInstanceOf(SSLHandshakeException.class).hasMessageContaining("e-peer.ns.svc");
  }

  private static SSLContext operatorContext(String peerDomain, Path key) throws IOException {
    return TlsMaterial.context(pem(ca.file("ca.crt")), pem(ca.file("operator.crt")), pem(key),
        peerDomain);
  }

  private static TlsMaterial.Pem pem(Path file) throws IOException {
    return new TlsMaterial.Pem(Files.readAllBytes(file), file.toString());
  }

  private static int get(int port, SSLContext context) throws Exception {
    HttpClient http = HttpClient.newBuilder().sslContext(context).build();
    return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/x")).GET()
        .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** An HTTPS server with {@code name}'s certificate of {@code issuer}, requiring client certificates of {@link #ca}. */
  private int serve(TestCertificates issuer, String name) throws Exception {
    CertificateFactory x509 = CertificateFactory.getInstance("X.509");
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    try (var in = Files.newInputStream(issuer.file(name + ".crt"))) {
      keys.setKeyEntry("server", PemKeys.privateKey(Files.readAllBytes(issuer.file(name + ".key")), name),
          new char[0], x509.generateCertificates(in).toArray(Certificate[]::new));
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (var in = Files.newInputStream(ca.file("ca.crt"))) {
      trust.setCertificateEntry("ca", x509.generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
    server.setHttpsConfigurator(new HttpsConfigurator(context) {
      @Override
      public void configure(HttpsParameters params) {
        params.setNeedClientAuth(true);
      }
    });
    server.createContext("/x", e -> {
      e.sendResponseHeaders(200, -1);
      e.close();
    });
    server.start();
    return server.getAddress().getPort();
  }
}
