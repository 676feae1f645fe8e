package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.TlsFiles;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.util.FreePorts;
import cloud.gardener.druid.agent.util.ProcessRunner;
import cloud.gardener.druid.agent.util.TlsContexts;
import cloud.gardener.druid.api.AgentApi;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd's client and peer URLs and the agent API with TLS (certificates made by openssl):
 * the agent starts etcd with them, talks to it over TLS and serves its API over mutual TLS.
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
    int clientPort = FreePorts.on(HOST);
    int peerPort = FreePorts.on(HOST);
    int serverPort = FreePorts.on(HOST);
    List<String> args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=https://" + HOST + ":" + peerPort, work.resolve("data/new.etcd"));
    args.addAll(AgentArgs.localStore(work.resolve("backups")));
    args.addAll(List.of("--client-tls-dir=" + tlsDir, "--peer-tls-dir=" + tlsDir,
        "--server-tls-dir=" + tlsDir));

    try (AgentProcess agent = new AgentProcess(args, HOST, serverPort,
        AgentProcess.logDir("TlsAgentIT").resolve("agent.log"), TlsContexts.of(tls))) {
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
    }
  }

  /** A CA and one certificate for 127.0.0.1 usable as server and client. */
  private static Path certificates(Path dir) throws Exception {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n");
    run(dir, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-subj", "/CN=druid-test-ca", "-keyout", "ca.key", "-out", "ca.crt");
    run(dir, "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=etcd-test",
        "-keyout", "tls.key", "-out", "tls.csr");
    run(dir, "openssl", "x509", "-req", "-in", "tls.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "1", "-extfile", "ext.cnf", "-out", "tls.crt");
    return dir;
  }

  private static void run(Path dir, String... command) throws Exception {
    List<String> withPaths = new java.util.ArrayList<>();
    for (String part : command) {
      withPaths.add(part.matches("(ca|tls)\\.(key|crt|csr)|ext\\.cnf")
          ? dir.resolve(part).toString() : part);
    }
    ProcessRunner.run(withPaths, Duration.ofMinutes(1));
  }
}
