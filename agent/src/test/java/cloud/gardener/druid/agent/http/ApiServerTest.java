package cloud.gardener.druid.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.http.ApiServer.Kind;
import cloud.gardener.druid.agent.tls.ReloadingTls;
import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.tls.Certificates.Issued;
import cloud.gardener.druid.api.tls.Certificates.Use;
import cloud.gardener.druid.testenv.time.ManualClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent API's server in-process over real TLS: who may call it (the operator's
 * certificate only), certificate rotation without a restart, and long operations that cannot
 * starve the probes.
 */
class ApiServerTest {

  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final int SLOTS = 2;

  @TempDir
  Path dir;

  private final Issued ca = Certificates.ca("agent-api-ca", NOW.minus(1, ChronoUnit.HOURS),
      NOW.plus(1, ChronoUnit.DAYS));
  private final Issued operator = client(ca, AgentApi.OPERATOR_CLIENT_NAME);
  private final ManualClock clock = new ManualClock(NOW);
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch longStarted = new CountDownLatch(SLOTS);
  private ApiServer server;
  private TlsFiles files;

  @BeforeEach
  void start() throws Exception {
    files = new TlsFiles(dir.resolve("ca.crt"), dir.resolve("tls.crt"), dir.resolve("tls.key"));
    writeAgentFiles(serverCertificate(ca), ca);
    SSLContext tls = new ReloadingTls(files, clock, Duration.ofSeconds(10)).context();
    server = new ApiServer(new InetSocketAddress("127.0.0.1", 0), Optional.of(tls),
        Optional.of(new CallerCheck(AgentApi.OPERATOR_CLIENT_NAME)),
        SLOTS);
    server.route(AgentApi.READYZ, Set.of("GET"), Kind.OPEN, false,
        e -> Exchanges.json(e, 200, Map.of("ready", true)));
    server.route(AgentApi.MEMBER_REMOVE, Set.of("POST"), Kind.QUICK, true,
        e -> Exchanges.json(e, 200, Map.of("removed", "1")));
    server.route(AgentApi.SNAPSHOT_FULL, Set.of("POST"), Kind.LONG, true, e -> {
      longStarted.countDown();
      release.await();
      Exchanges.json(e, 200, Map.of("endRevision", 7));
    });
    server.start();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  @Test
  void onlyTheOperatorsCertificateMayCallAnythingButTheProbes() throws Exception {
    HttpClient anonymous = client(Optional.empty(), ca);
    assertThat(post(anonymous, AgentApi.MEMBER_REMOVE).statusCode()).isEqualTo(401);
    assertThat(get(anonymous, AgentApi.READYZ).statusCode()).isEqualTo(200);

    Issued etcdClient = client(ca, "etcd-client");
    HttpResponse<String> wrongName = post(client(Optional.of(etcdClient), ca),
        AgentApi.MEMBER_REMOVE);
    assertThat(wrongName.statusCode()).isEqualTo(403);
    assertThat(wrongName.body()).contains("names etcd-client, not etcd-druid-operator");

    Issued expired = Certificates.issue(ca, AgentApi.OPERATOR_CLIENT_NAME, List.of(), Use.CLIENT,
        NOW.minus(2, ChronoUnit.HOURS), NOW.minus(1, ChronoUnit.HOURS));
    assertThat(status(() -> post(client(Optional.of(expired), ca), AgentApi.MEMBER_REMOVE)))
        .isNotEqualTo(200);

    Issued otherCa = Certificates.ca("other", NOW.minus(1, ChronoUnit.HOURS),
        NOW.plus(1, ChronoUnit.DAYS));
    assertThat(status(() -> post(client(Optional.of(client(otherCa,
        AgentApi.OPERATOR_CLIENT_NAME)), ca), AgentApi.MEMBER_REMOVE))).isNotEqualTo(200);

    assertThat(post(client(Optional.of(operator), ca), AgentApi.MEMBER_REMOVE).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aRotatedCaBundleAndServerCertificateAreUsedWithoutARestart() throws Exception {
    Issued next = Certificates.ca("agent-api-ca-2", NOW.minus(1, ChronoUnit.HOURS),
        NOW.plus(2, ChronoUnit.DAYS));
    Issued nextOperator = client(next, AgentApi.OPERATOR_CLIENT_NAME);
    assertThat(status(() -> post(client(Optional.of(nextOperator), ca, next),
        AgentApi.MEMBER_REMOVE))).as("before the rotation").isNotEqualTo(200);

    // the operator's rotation as the kubelet writes it: both CAs trusted, the server
    // certificate of the new CA
    writeAgentFiles(serverCertificate(next), ca, next);
    clock.advance(Duration.ofSeconds(11));

    assertThat(post(client(Optional.of(nextOperator), ca, next), AgentApi.MEMBER_REMOVE)
        .statusCode()).as("the new operator certificate").isEqualTo(200);
    assertThat(post(client(Optional.of(operator), ca, next), AgentApi.MEMBER_REMOVE)
        .statusCode()).as("the old one, until the old CA leaves the bundle").isEqualTo(200);
  }

  @Test
  void longOperationsAreBoundedAndNeverStarveTheProbes() throws Exception {
    HttpClient operatorClient = client(Optional.of(operator), ca);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      calls.add(operatorClient.sendAsync(request(AgentApi.SNAPSHOT_FULL)
          .POST(BodyPublishers.noBody()).build(), BodyHandlers.ofString()));
    }
    longStarted.await();
    AtomicInteger busy = new AtomicInteger();
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      if (!call.isDone()) {
        continue;
      }
      HttpResponse<String> r = call.get();
      assertThat(r.statusCode()).isEqualTo(AgentApi.BUSY);
      assertThat(r.headers().firstValue("Retry-After")).isPresent();
      busy.incrementAndGet();
    }
    // every request thread is free while the long operations run
    for (int i = 0; i < 2 * ApiServer.REQUEST_THREADS; i++) {
      assertThat(get(client(Optional.empty(), ca), AgentApi.READYZ).statusCode()).isEqualTo(200);
      assertThat(post(operatorClient, AgentApi.MEMBER_REMOVE).statusCode()).isEqualTo(200);
    }
    release.countDown();
    List<Integer> statuses = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      statuses.add(call.get().statusCode());
    }
    assertThat(statuses).filteredOn(s -> s == 200).hasSize(SLOTS);
    assertThat(statuses).filteredOn(s -> s == AgentApi.BUSY)
        .hasSize(6 - SLOTS).hasSizeGreaterThanOrEqualTo(busy.get());
  }

  private Issued serverCertificate(Issued issuer) {
    return Certificates.issue(issuer, "agent", List.of("127.0.0.1"), Use.SERVER,
        NOW.minus(1, ChronoUnit.HOURS), NOW.plus(1, ChronoUnit.DAYS));
  }

  private static Issued client(Issued issuer, String name) {
    return Certificates.issue(issuer, name, List.of(), Use.CLIENT,
        NOW.minus(1, ChronoUnit.HOURS), NOW.plus(1, ChronoUnit.DAYS));
  }

  private void writeAgentFiles(Issued server, Issued... bundle) throws IOException {
    StringBuilder cas = new StringBuilder();
    for (Issued c : bundle) {
      cas.append(c.certificatePem());
    }
    Files.writeString(files.ca(), cas);
    Files.writeString(files.cert(), server.certificatePem());
    Files.writeString(files.key(), server.keyPem());
  }

  private static HttpClient client(Optional<Issued> identity, Issued... trusted)
      throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    for (int i = 0; i < trusted.length; i++) {
      trust.setCertificateEntry("ca-" + i, trusted[i].certificate());
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    KeyManagerFactory kmf = null;
    if (identity.isPresent()) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("id", identity.get().key(), new char[0],
          new X509Certificate[] {identity.get().certificate()});
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(context).connectTimeout(TIMEOUT).build();
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
        .timeout(TIMEOUT);
  }

  private HttpResponse<String> get(HttpClient http, String path) throws Exception {
    return http.send(request(path).GET().build(), BodyHandlers.ofString());
  }

  private HttpResponse<String> post(HttpClient http, String path) throws Exception {
    return http.send(request(path).POST(BodyPublishers.noBody()).build(),
        BodyHandlers.ofString());
  }

  @FunctionalInterface
  private interface Call {
    HttpResponse<String> send() throws Exception;
  }

  /** The answer's status, or -1 when the TLS handshake refused the caller. */
  private static int status(Call call) throws Exception {
    try {
      return call.send().statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

}
