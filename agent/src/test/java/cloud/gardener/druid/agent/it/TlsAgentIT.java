package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.tls.TlsContexts;
import cloud.gardener.druid.agent.tls.TlsFiles;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.agent.util.ProcessRunner;
import cloud.gardener.druid.api.agent.AgentApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd's client and peer URLs and the agent API with TLS (certificates and PKCS#1 / SEC1 keys
 * made by openssl): the agent starts etcd with them, talks to it over TLS and serves its API
 * over mutual TLS to the operator's name only.
 */
class TlsAgentIT {

  private static final String HOST = "127.0.0.1";

  @TempDir
  Path work;

  @Test
  void runsEtcdAndItsApiWithTls() throws Exception {
    Path tlsDir = certificates(work.resolve("tls"));
    TlsFiles tls = new TlsFiles(tlsDir.resolve("ca.crt"), tlsDir.resolve("tls.crt"),
        tlsDir.resolve("tls.key"));
    int clientPort = LoopbackPorts.on(HOST);
    int peerPort = LoopbackPorts.on(HOST);
    int serverPort = LoopbackPorts.on(HOST);
    List<String> args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=https://" + HOST + ":" + peerPort, work.resolve("data/new.etcd"));
    args.addAll(AgentArgs.localStore(work.resolve("backups")));
    args.remove(AgentArgs.INSECURE_API);
    args.addAll(List.of("--client-tls-dir=" + tlsDir, "--peer-tls-dir=" + tlsDir,
        "--server-tls-dir=" + tlsDir));
    assertThat(Files.readString(tlsDir.resolve("tls.key"))).contains("BEGIN RSA PRIVATE KEY");
    assertThat(Files.readString(tlsDir.resolve("operator.key")))
        .contains("BEGIN EC PARAMETERS", "BEGIN EC PRIVATE KEY");
    TlsFiles operator = new TlsFiles(tlsDir.resolve("ca.crt"), tlsDir.resolve("operator.crt"),
        tlsDir.resolve("operator.key"));

    Path logDir = AgentProcess.logDir("TlsAgentIT");
    try (AgentProcess agent = new AgentProcess(args, HOST, serverPort,
        logDir.resolve("agent.log"), TlsContexts.of(operator))) {
      agent.awaitReady(Duration.ofSeconds(90));
      try (MemberClient etcd = new MemberClient(
          URI.create("https://" + HOST + ":" + clientPort), Optional.of(tls))) {
        SingleMemberAgentIT.putKeys(etcd, "/tls/", 0, 100);
        assertThat(countPrefix(etcd, "/tls/")).isEqualTo(100);
      }
      var full = agent.post(AgentApi.SNAPSHOT_FULL);
      assertThat(full.statusCode()).as(full.body()).isEqualTo(200);
      assertThat(agent.get(AgentApi.CONFIG).body())
          .contains("\"listen-client-urls\":\"https://127.0.0.1:" + clientPort + "\"")
          .contains("\"peer-client-cert-auth\":\"true\"");
      assertThat(agent.log()).contains("audit: POST " + AgentApi.SNAPSHOT_FULL
          + " by etcd-druid-operator from 127.0.0.1: 200");

      // etcd's client certificate is of the same CA but names etcd-test, not the operator
      HttpClient etcdClient = HttpClient.newBuilder().sslContext(TlsContexts.of(tls)).build();
      URI base = URI.create("https://" + HOST + ":" + serverPort);
      HttpResponse<String> refused = etcdClient.send(HttpRequest.newBuilder(
          base.resolve(AgentApi.MEMBER_REMOVE + "?id=1")).POST(BodyPublishers.noBody()).build(),
          BodyHandlers.ofString());
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
      assertThat(etcdClient.send(HttpRequest.newBuilder(base.resolve(AgentApi.READYZ)).build(),
          BodyHandlers.ofString()).statusCode()).isEqualTo(200);
      assertThat(agent.log()).contains("audit: POST " + AgentApi.MEMBER_REMOVE
          + "?id=1 by etcd-test from 127.0.0.1: 403");
    }
  }

  /** A CA and one certificate for 127.0.0.1 usable as server and client. */
  private static Path certificates(Path dir) throws Exception {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n");
    run(dir, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-subj", "/CN=druid-test-ca", "-keyout", "ca.key", "-out", "ca.crt");
    // keys as users have them: PKCS#1 RSA for the server (and etcd client), SEC1 EC with
    // openssl's EC PARAMETERS block for the operator
    run(dir, "openssl", "genrsa", "-traditional", "-out", "tls.key", "2048");
    run(dir, "openssl", "req", "-new", "-key", "tls.key", "-subj", "/CN=etcd-test",
        "-out", "tls.csr");
    run(dir, "openssl", "x509", "-req", "-in", "tls.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "1", "-extfile", "ext.cnf", "-out", "tls.crt");
    run(dir, "openssl", "ecparam", "-name", "prime256v1", "-genkey", "-out", "operator.key");
    run(dir, "openssl", "req", "-new", "-key", "operator.key", "-subj",
        "/CN=etcd-druid-operator", "-out", "operator.csr");
    run(dir, "openssl", "x509", "-req", "-in", "operator.csr", "-CA", "ca.crt", "-CAkey",
        "ca.key", "-CAcreateserial", "-days", "1", "-out", "operator.crt");
    return dir;
  }

  private static void run(Path dir, String... command) throws Exception {
    List<String> withPaths = new java.util.ArrayList<>();
    for (String part : command) {
      withPaths.add(part.matches("(ca|tls|operator)\\.(key|crt|csr)|ext\\.cnf")
          ? dir.resolve(part).toString() : part);
    }
    ProcessRunner.run(withPaths, Duration.ofMinutes(1));
  }
}
