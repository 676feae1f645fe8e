package cloud.gardener.druid.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.tls.EtcdCredentials;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.agent.verify.BackupDrill;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.api.verify.DrillReport.Outcome;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.Client;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent whose etcd has authentication on ({@code spec.etcd.authSecretRef}): with the
 * credential files it takes full and delta snapshots and serves the member status; after the
 * user's password changed and before the file follows, it names the file, never the password;
 * once the file holds the new password it works again without a restart. A drill of its
 * backups needs the credentials too: the restored database keeps etcd's authentication on.
 */
class EtcdAuthAgentIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOST = "127.0.0.1";
  private static final String FIRST = "first-Secret-pw-1";
  private static final String SECOND = "second-Secret-pw-2";

  @TempDir
  Path work;

  @Test
  void anAgentAuthenticatesToItsEtcdAndFollowsARotatedPassword() throws Exception {
    int clientPort = LoopbackPorts.on(HOST);
    int peerPort = LoopbackPorts.on(HOST);
    int serverPort = LoopbackPorts.on(HOST);
    String endpoint = "http://" + HOST + ":" + clientPort;
    Path auth = Files.createDirectories(work.resolve("auth"));
    Files.writeString(auth.resolve("username"), "root");
    Files.writeString(auth.resolve("password"), FIRST + "\n");
    List<String> args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=http://" + HOST + ":" + peerPort, work.resolve("data/new.etcd"));
    args.addAll(AgentArgs.localStore(work.resolve("backups")));
    args.add("--etcd-auth-dir=" + auth);
    Path logs = AgentProcess.logDir("EtcdAuthAgentIT");
    try (AgentProcess first = new AgentProcess(args, HOST, serverPort, logs.resolve("a.log"))) {
      first.awaitReady(Duration.ofSeconds(90));
      try (Client plain = Client.builder().endpoints(endpoint).build()) {
        // keys ahead of the backups: the restart then keeps the database (and its auth store)
        plain.getKVClient().put(LocalEtcd.bytes("/before"), LocalEtcd.bytes("x"))
            .get(10, TimeUnit.SECONDS);
        plain.getAuthClient().userAdd(LocalEtcd.bytes("root"), LocalEtcd.bytes(FIRST))
            .get(10, TimeUnit.SECONDS);
        plain.getAuthClient().userGrantRole(LocalEtcd.bytes("root"), LocalEtcd.bytes("root"))
            .get(10, TimeUnit.SECONDS);
        plain.getAuthClient().authEnable().get(10, TimeUnit.SECONDS);
      }
    }
    // a new etcd process: its auth store is on from the start, earlier tokens are gone
    try (AgentProcess agent = new AgentProcess(args, HOST, serverPort, logs.resolve("b.log"));
        Client root = Client.builder().endpoints(endpoint).user(LocalEtcd.bytes("root"))
            .password(LocalEtcd.bytes(FIRST)).build()) {
      agent.awaitReady(Duration.ofSeconds(90));
      long written = 0;
      for (int i = 0; i < 10; i++) {
        written = root.getKVClient().put(LocalEtcd.bytes("/auth/" + i), LocalEtcd.bytes("v"))
            .get(10, TimeUnit.SECONDS).getHeader().getRevision();
      }
      HttpResponse<String> full = agent.post(AgentApi.SNAPSHOT_FULL);
      assertThat(full.statusCode()).as(full.body()).isEqualTo(200);
      assertThat(JSON.readTree(full.body()).path("endRevision").asLong()).isEqualTo(written);
      root.getKVClient().put(LocalEtcd.bytes("/auth/after"), LocalEtcd.bytes("x"))
          .get(10, TimeUnit.SECONDS);
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> PrometheusScrape.parse(
          agent.get(AgentApi.METRICS).body()).value("etcdbr_snapshot_duration_seconds_count",
          Map.of("kind", "Incr", "succeeded", "true")).orElse(0.0) >= 1);
      HttpResponse<String> status = agent.get(AgentApi.MEMBER_STATUS);
      assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
      JsonNode etcd = JSON.readTree(status.body()).path("etcd");
      assertThat(etcd.path("revision").asLong()).as(status.body()).isGreaterThan(written);

      // etcd drops the user's tokens when its password changes; the file still holds the old
      root.getAuthClient().userChangePassword(LocalEtcd.bytes("root"), LocalEtcd.bytes(SECOND))
          .get(10, TimeUnit.SECONDS);
      // the first call may meet the dropped token; the next authentication uses the old file
      List<String> answers = new java.util.ArrayList<>();
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
        HttpResponse<String> refused = agent.post(AgentApi.SNAPSHOT_FULL);
        assertThat(refused.statusCode()).as(refused.body()).isNotEqualTo(200);
        answers.add(refused.body());
        return refused.body().contains(auth.resolve("password").toString());
      });
      assertThat(answers.get(answers.size() - 1)).contains("authentication failed");
      assertThat(answers).allSatisfy(a -> assertThat(a).doesNotContain(FIRST)
          .doesNotContain(SECOND));

      Files.writeString(auth.resolve("password"), SECOND);
      HttpResponse<String> rotated = agent.post(AgentApi.SNAPSHOT_FULL);
      assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
      assertThat(agent.get(AgentApi.MEMBER_STATUS).statusCode()).isEqualTo(200);
      assertThat(agent.log()).doesNotContain(FIRST).doesNotContain(SECOND);
    }
    assertThat(Files.readString(logs.resolve("a.log"))).doesNotContain(FIRST);

    // a drill's throw-away etcd restored from these backups keeps etcd's authentication on
    try (SnapshotStore store = new LocalSnapshotStore(work.resolve("backups"),
        "default--etcd-test")) {
      DrillReport without = drill(store, Optional.empty());
      assertThat(without.outcome()).as(without.message()).isNotEqualTo(Outcome.VERIFIED);
      assertThat(without.message()).contains("etcd authentication on", "user name is empty");
      DrillReport with = drill(store, Optional.of(EtcdCredentials.in(auth)));
      assertThat(with.outcome()).as(with.message()).isEqualTo(Outcome.VERIFIED);
      assertThat(without.message() + with.message()).doesNotContain(SECOND);
    }
  }

  private DrillReport drill(SnapshotStore store, Optional<EtcdCredentials> credentials)
      throws Exception {
    MemberConfig scratch = new MemberConfig("etcd-test-drill", "etcd-test", "default", HOST,
        HOST, LoopbackPorts.on(HOST), LoopbackPorts.on(HOST), Map.of(), "drill",
        work.resolve("drill"), Optional.empty(), Optional.empty())
        .withEtcdCredentials(credentials);
    return new BackupDrill(store, TestConfigs.tuning(), scratch, Clock.systemUTC()).run();
  }
}
