package cloud.gardener.druid.operator.agent;

import static cloud.gardener.druid.operator.agent.AgentCertificates.CA_BUNDLE;
import static cloud.gardener.druid.operator.agent.AgentCertificates.CLIENT_CERT;
import static cloud.gardener.druid.operator.agent.AgentCertificates.CLIENT_KEY;
import static cloud.gardener.druid.operator.agent.AgentCertificates.SERVER_CERT;
import static cloud.gardener.druid.operator.agent.AgentCertificates.SERVER_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.tls.PemKeys;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * The operator's own certificates of an Etcd's agent API: what it issues, when it renews,
 * and that no call fails during a CA rotation while the agents' files (written by the
 * kubelet) or the operator's cached context are one version behind.
 */
class AgentCertificatesTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<String> NAMES = AgentCertificates.serverNames("e", "ns");

  @Test
  void issuesACaAServerCertificateForTheMembersAndTheOperatorsClientCertificate()
      throws Exception {
    Map<String, String> s = AgentCertificates.next(Map.of(), NAMES, T0);
    List<X509Certificate> bundle = certs(s, CA_BUNDLE);
    assertThat(bundle).hasSize(1);
    X509Certificate server = certs(s, SERVER_CERT).get(0);
    X509Certificate client = certs(s, CLIENT_CERT).get(0);
    server.verify(bundle.get(0).getPublicKey());
    client.verify(bundle.get(0).getPublicKey());
    assertThat(server.getSubjectAlternativeNames().stream().map(san -> (Object) san.get(1)))
        .containsExactlyInAnyOrder("*.e-peer.ns.svc", "*.e-peer.ns.svc.cluster.local");
    assertThat(client.getSubjectX500Principal().getName())
        .isEqualTo("CN=" + AgentApi.OPERATOR_CLIENT_NAME);
    assertThat(client.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(AgentCertificates.next(s, NAMES, T0.plus(1, ChronoUnit.DAYS))).isSameAs(s);
    Map<String, String> now = AgentCertificates.next(Map.of(), NAMES, Instant.now());
    assertThat(call(now, now)).as("a TLS call with the certificates of now").isEqualTo(200);
  }

  @Test
  void renewsCertificatesByTheSameCaBeforeTheyExpire() throws Exception {
    Map<String, String> s = AgentCertificates.next(Map.of(), NAMES, T0);
    Instant due = T0.plus(AgentCertificates.CERT_VALIDITY).minus(AgentCertificates.CERT_RENEWAL)
        .plus(1, ChronoUnit.HOURS);
    Map<String, String> renewed = AgentCertificates.next(s, NAMES, due);
    assertThat(renewed.get(CA_BUNDLE)).isEqualTo(s.get(CA_BUNDLE));
    assertThat(renewed.get(SERVER_CERT)).isNotEqualTo(s.get(SERVER_CERT));
    assertThat(renewed.get(CLIENT_CERT)).isNotEqualTo(s.get(CLIENT_CERT));
    assertThat(accepted(s, renewed, due)).isTrue();
    assertThat(accepted(renewed, s, due)).isTrue();
  }

  @Test
  void aNewCaReachesEveryPodBeforeAnyCertificateItSignsAndTheOldOneGoesLast() {
    Instant rotation = T0.plus(AgentCertificates.CA_VALIDITY)
        .minus(AgentCertificates.CA_RENEWAL).plus(1, ChronoUnit.HOURS);
    Map<String, String> s = AgentCertificates.next(Map.of(), NAMES, T0);
    s = AgentCertificates.next(s, NAMES, rotation.minus(AgentCertificates.CERT_RENEWAL));

    Map<String, String> added = AgentCertificates.next(s, NAMES, rotation);
    assertThat(bundleSize(added)).isEqualTo(2);
    assertThat(added.get(SERVER_CERT)).isEqualTo(s.get(SERVER_CERT));
    assertThat(added.get(CLIENT_CERT)).isEqualTo(s.get(CLIENT_CERT));
    assertThat(AgentCertificates.next(added, NAMES, rotation.plus(1, ChronoUnit.MINUTES)))
        .as("within the propagation time").isSameAs(added);

    Instant propagated = rotation.plus(AgentCertificates.PROPAGATION);
    Map<String, String> reissued = AgentCertificates.next(added, NAMES, propagated);
    assertThat(bundleSize(reissued)).isEqualTo(2);
    assertThat(reissued.get(SERVER_CERT)).isNotEqualTo(added.get(SERVER_CERT));
    assertThat(AgentCertificates.next(reissued, NAMES, propagated.plus(1, ChronoUnit.MINUTES)))
        .isSameAs(reissued);

    Map<String, String> done = AgentCertificates.next(reissued, NAMES,
        propagated.plus(AgentCertificates.PROPAGATION));
    assertThat(bundleSize(done)).isEqualTo(1);
    assertThat(done.get(SERVER_CERT)).isEqualTo(reissued.get(SERVER_CERT));
  }

  /** Two years of reconciles every 6 hours: renewals and two CA rotations. */
  @Test
  void noCallFailsWhileOneSideIsAVersionBehind() throws Exception {
    List<Map<String, String>> versions = new ArrayList<>();
    List<Instant> times = new ArrayList<>();
    Map<String, String> s = AgentCertificates.next(Map.of(), NAMES, T0);
    versions.add(s);
    times.add(T0);
    for (Instant t = T0; t.isBefore(T0.plus(730, ChronoUnit.DAYS)); t = t.plus(6, ChronoUnit.HOURS)) {
      Map<String, String> next = AgentCertificates.next(s, NAMES, t);
      if (next != s) {
        versions.add(next);
        times.add(t);
        s = next;
      }
    }
    assertThat(versions.stream().map(v -> v.get(CA_BUNDLE).split("BEGIN").length - 1))
        .as("bundle sizes").contains(1, 2);
    assertThat(versions.stream().map(v -> certs(v, CA_BUNDLE).get(0)).distinct())
        .as("CAs").hasSizeGreaterThanOrEqualTo(3);
    for (int i = 1; i < versions.size(); i++) {
      for (Instant at : List.of(times.get(i), times.get(i).plus(AgentCertificates.PROPAGATION))) {
        assertThat(accepted(versions.get(i - 1), versions.get(i), at))
            .as("agent behind, version " + i + " at " + at).isTrue();
        assertThat(accepted(versions.get(i), versions.get(i - 1), at))
            .as("operator behind, version " + i + " at " + at).isTrue();
      }
    }
  }

  @Test
  void anUnreadableSecretIsReplaced() {
    Map<String, String> broken = Map.of(CA_BUNDLE, "junk");
    Map<String, String> s = AgentCertificates.next(broken, NAMES, T0);
    assertThat(s).containsKeys(CA_BUNDLE, SERVER_CERT, SERVER_KEY, CLIENT_CERT, CLIENT_KEY);
  }

  private static int bundleSize(Map<String, String> s) {
    return certs(s, CA_BUNDLE).size();
  }

  private static List<X509Certificate> certs(Map<String, String> s, String key) {
    try {
      return PemKeys.certificates(s.get(key).getBytes(StandardCharsets.US_ASCII), key);
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Whether, at {@code at}, an agent with the files of {@code agent} and the operator with
   * {@code operator} accept each other: the operator's client certificate chains to the
   * agent's bundle and names the operator, the agent's server certificate chains to the
   * operator's bundle and names a host of the peer domain (the checks of a handshake, at a
   * simulated time).
   */
  private static boolean accepted(Map<String, String> agent, Map<String, String> operator,
      Instant at) throws Exception {
    X509Certificate client = certs(operator, CLIENT_CERT).get(0);
    X509Certificate server = certs(agent, SERVER_CERT).get(0);
    boolean serverNamed = server.getSubjectAlternativeNames().stream()
        .anyMatch(san -> String.valueOf(san.get(1)).equals("*.e-peer.ns.svc"));
    return chains(client, certs(agent, CA_BUNDLE), at)
        && client.getSubjectX500Principal().getName().equals("CN=" + AgentApi.OPERATOR_CLIENT_NAME)
        && chains(server, certs(operator, CA_BUNDLE), at) && serverNamed;
  }

  private static boolean chains(X509Certificate cert, List<X509Certificate> cas, Instant at)
      throws Exception {
    Set<TrustAnchor> anchors = new HashSet<>();
    cas.forEach(ca -> anchors.add(new TrustAnchor(ca, null)));
    PKIXParameters params = new PKIXParameters(anchors);
    params.setRevocationEnabled(false);
    params.setDate(Date.from(at));
    try {
      CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509")
          .generateCertPath(List.of(cert)), params);
      return true;
    } catch (CertPathValidatorException e) {
      return false;
    }
  }

  /**
   * A call from the operator's context of {@code operator} to an agent serving the files of
   * {@code agent}, which requires a client certificate of its bundle naming the operator.
   */
  private static int call(Map<String, String> agent, Map<String, String> operator)
      throws Exception {
    HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
    server.setHttpsConfigurator(new HttpsConfigurator(agentContext(agent)) {
      @Override
      public void configure(HttpsParameters params) {
        params.setWantClientAuth(true); // as the agent (the JDK applies "want" after "need")
      }
    });
    server.createContext("/member/status", e -> {
      try {
        String caller = ((HttpsExchange) e).getSSLSession().getPeerPrincipal().getName();
        e.sendResponseHeaders(caller.equals("CN=" + AgentApi.OPERATOR_CLIENT_NAME) ? 200 : 403,
            -1);
      } catch (javax.net.ssl.SSLPeerUnverifiedException ex) {
        e.sendResponseHeaders(401, -1);
      } finally {
        e.close();
      }
    });
    server.start();
    try {
      SSLContext context = TlsMaterial.context(pem(operator, CA_BUNDLE),
          pem(operator, CLIENT_CERT), pem(operator, CLIENT_KEY), "e-peer.ns.svc");
      HttpClient http = HttpClient.newBuilder().sslContext(context).build();
      return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
          + server.getAddress().getPort() + "/member/status")).timeout(Duration.ofSeconds(30))
          .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } finally {
      server.stop(0);
    }
  }

  private static TlsMaterial.Pem pem(Map<String, String> s, String key) {
    return new TlsMaterial.Pem(s.get(key).getBytes(StandardCharsets.US_ASCII), key);
  }

  private static SSLContext agentContext(Map<String, String> s) throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("server", PemKeys.privateKey(pem(s, SERVER_KEY).bytes(), SERVER_KEY),
        new char[0], certs(s, SERVER_CERT).toArray(X509Certificate[]::new));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    int i = 0;
    for (X509Certificate ca : certs(s, CA_BUNDLE)) {
      trust.setCertificateEntry("ca-" + i++, ca);
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return context;
  }
}
