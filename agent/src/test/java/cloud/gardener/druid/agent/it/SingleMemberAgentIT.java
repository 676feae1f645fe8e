package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static cloud.gardener.druid.agent.testing.LocalEtcd.value;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.AgentApi;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.KV;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** One agent with its etcd: backups while running, a full restore after the data is lost. */
class SingleMemberAgentIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOST = "127.0.0.1";

  @TempDir
  Path work;
  private Path logs;
  private List<String> args;
  private int clientPort;
  private int serverPort;

  @BeforeEach
  void setUp(TestInfo test) throws Exception {
    logs = AgentProcess.logDir("SingleMemberAgentIT-" + test.getTestMethod().get().getName());
    clientPort = LoopbackPorts.on(HOST);
    int peerPort = LoopbackPorts.on(HOST);
    serverPort = LoopbackPorts.on(HOST);
    args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=http://" + HOST + ":" + peerPort, work.resolve("data/new.etcd"));
    args.addAll(AgentArgs.localStore(work.resolve("backups")));
  }

  private AgentProcess startAgent(String logName) throws Exception {
    AgentProcess agent = new AgentProcess(args, HOST, serverPort, logs.resolve(logName));
    agent.awaitReady(Duration.ofSeconds(90));
    return agent;
  }

  private MemberClient etcd() {
    return new MemberClient(URI.create("http://" + HOST + ":" + clientPort), Optional.empty());
  }

  @Test
  void everyKeyIsBackAfterTheDataDirectoryIsWiped() throws Exception {
    try (AgentProcess agent = startAgent("agent-1.log"); MemberClient etcd = etcd()) {
      putKeys(etcd, "/before/", 0, 10_000);
      JsonNode full = JSON.readTree(agent.post(AgentApi.SNAPSHOT_FULL).body());
      assertThat(full.path("kind").asText()).isEqualTo("Full");
      JsonNode progress = JSON.readTree(agent.get(AgentApi.SNAPSHOT_PROGRESS).body());
      assertThat(progress.path("kind").asText()).isEqualTo("full");
      assertThat(progress.path("running").asBoolean()).as("the snapshot is done").isFalse();
      assertThat(progress.path("bytesDone").asLong()).as("bytes read from etcd")
          .isPositive();
      assertThat(progress.path("bytesTotal").asLong()).as("etcd's database size")
          .isPositive();
      assertThat(Files.readString(work.resolve("backups/default--etcd-test/v2/"
          + StoreIdentity.OBJECT_NAME))).as("the empty prefix is claimed")
          .contains("\"namespace\":\"default\"").contains("\"etcd\":\"etcd-test\"");
      assertThat(agent.get(AgentApi.METRICS).body())
          .containsPattern("\netcdbr_snapshot_duration_seconds_count\\{kind=\"Full\","
              + "succeeded=\"true\"\\} [1-9]");

      putKeys(etcd, "/after/", 0, 500);
      etcd.client().getKVClient().delete(cloud.gardener.druid.agent.testing.LocalEtcd
          .bytes("/before/42")).get(10, TimeUnit.SECONDS);
      long written = etcd.revision();
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> JSON.readTree(
          agent.get(AgentApi.SNAPSHOT_LATEST).body()).path("deltaSnapshots")
          .findValues("endRevision").stream().anyMatch(r -> r.asLong() >= written));

      assertThat(agent.stop()).as("exit code after SIGTERM").isIn(0, 143);
    }
    Files2.deleteTree(work.resolve("data/new.etcd"));

    try (AgentProcess agent = startAgent("agent-2.log"); MemberClient etcd = etcd()) {
      assertThat(countPrefix(etcd, "/before/")).isEqualTo(9_999);
      assertThat(countPrefix(etcd, "/after/")).isEqualTo(500);
      assertThat(value(etcd, "/after/499")).hasValue("value-499");
      assertThat(value(etcd, "/before/42")).isEmpty();
      assertThat(agent.get(AgentApi.INITIALIZATION_STATUS).body()).isEqualTo("Successful");
      JsonNode restore = JSON.readTree(agent.get(AgentApi.MEMBER_STATUS).body()).path("restore");
      assertThat(restore.path("phase").asText()).isEqualTo("DONE");
      assertThat(agent.log()).containsPattern("restoring: full snapshot Full-\\S+: .* read")
          .contains("delta snapshots replayed");
      assertThat(agent.log()).contains("initialisation done: RESTORED");
      assertThat(agent.get(AgentApi.METRICS).body()).contains("etcdbr_restoration_duration"
          + "_seconds_count{restore=\"single_node\",succeeded=\"true\"} 1\n");
      assertThat(agent.get(AgentApi.MEMBER_STATUS).body()).contains("\"role\":\"Leader\"");
      assertThat(agent.get(AgentApi.HEALTHZ).body()).isEqualTo("{\"health\":true}");
      assertThat(JSON.readTree(agent.get(AgentApi.CONFIG).body()).path("initial-cluster-state")
          .asText()).isEqualTo("new");

      long lastDelta = JSON.readTree(agent.get(AgentApi.SNAPSHOT_LATEST).body())
          .path("deltaSnapshots").findValues("endRevision").stream()
          .mapToLong(JsonNode::asLong).max().orElseThrow();
      assertThat(etcd.revision()).as("the replay ends at the last delta's revision")
          .isEqualTo(lastDelta);
      etcd.client().getKVClient().put(cloud.gardener.druid.agent.testing.LocalEtcd.bytes(
          "/after-restore"), cloud.gardener.druid.agent.testing.LocalEtcd.bytes("x"))
          .get(10, TimeUnit.SECONDS);
      long written = etcd.revision();
      Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> JSON.readTree(
          agent.get(AgentApi.SNAPSHOT_LATEST).body()).path("deltaSnapshots")
          .findValues("endRevision").stream().anyMatch(r -> r.asLong() >= written));
      assertThat(JSON.readTree(agent.get(AgentApi.SNAPSHOT_LATEST).body())
          .path("deltaSnapshots").findValues("startRevision").stream()
          .mapToLong(JsonNode::asLong).max().orElseThrow())
          .as("the first delta after the restore holds only the new write, no replayed event")
          .isEqualTo(written);
    }
  }

  @Test
  void anUncleanExitIsFollowedByAFullValidationAndTheDataIsKept() throws Exception {
    try (AgentProcess agent = startAgent("agent-1.log"); MemberClient etcd = etcd()) {
      putKeys(etcd, "/k/", 0, 100);
      assertThat(agent.get(AgentApi.HEALTHZ).statusCode()).isEqualTo(200);
      // the agent's client is connected: /healthz must still ask etcd, not the connection
      long etcdPid = agent.process().descendants().findFirst().orElseThrow().pid();
      signal("STOP", etcdPid);
      try {
        assertThat(agent.get(AgentApi.HEALTHZ).statusCode()).as("/healthz of a frozen etcd")
            .isEqualTo(503);
      } finally {
        signal("CONT", etcdPid);
      }
      Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .until(() -> agent.get(AgentApi.HEALTHZ).statusCode() == 200);
      agent.kill();
    }
    assertThat(work.resolve("data/new.etcd/druid-etcd-running")).exists();
    try (AgentProcess agent = startAgent("agent-2.log"); MemberClient etcd = etcd()) {
      assertThat(countPrefix(etcd, "/k/")).isEqualTo(100);
      assertThat(agent.log()).contains("initialisation done: VALID_DATA");
      assertThat(agent.stop()).as("exit code after SIGTERM").isIn(0, 143);
    }
    assertThat(work.resolve("data/new.etcd/druid-etcd-running")).doesNotExist();
    assertThat(Files.exists(work.resolve("data/new.etcd/druid-guard.json"))).isTrue();
  }

  /**
   * A delta deleted from the middle of the store's chain (by hand, by a bucket lifecycle rule)
   * would stop every later restore there: the agent finds the gap when it starts writing and
   * takes a full snapshot, and a restore from the store gives back every key again.
   */
  @Test
  void aGapInTheDeltaChainIsAnsweredWithAFullSnapshot() throws Exception {
    Path v2 = work.resolve("backups/default--etcd-test/v2");
    try (AgentProcess agent = startAgent("agent-1.log"); MemberClient etcd = etcd()) {
      agent.post(AgentApi.SNAPSHOT_FULL);
      for (int round = 0; round < 3; round++) {
        putKeys(etcd, "/round-" + round + "/", 0, 100);
        long written = etcd.revision();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> JSON.readTree(
            agent.get(AgentApi.SNAPSHOT_LATEST).body()).path("deltaSnapshots")
            .findValues("endRevision").stream().anyMatch(r -> r.asLong() >= written));
      }
      assertThat(agent.stop()).as("exit code after SIGTERM").isIn(0, 143);
    }
    List<Path> deltas;
    try (var files = Files.list(v2)) {
      deltas = files.filter(f -> f.getFileName().toString().startsWith("Incr-")).sorted()
          .toList();
    }
    assertThat(deltas).hasSizeGreaterThanOrEqualTo(3);
    int middle = deltas.size() / 2;
    Files.delete(deltas.get(middle));

    try (AgentProcess agent = startAgent("agent-2.log"); MemberClient etcd = etcd()) {
      long revision = etcd.revision();
      Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> JSON.readTree(
          agent.get(AgentApi.SNAPSHOT_LATEST).body()).path("fullSnapshot").path("endRevision")
          .asLong() >= revision);
      assertThat(agent.log()).contains("the store's delta chain has a gap: no snapshot holds"
          + " revisions").contains(deltas.get(middle + 1).getFileName().toString());
      assertThat(agent.get(AgentApi.METRICS).body())
          .contains("\netcddruid_agent_snapshot_chain_gaps_total 1");
      assertThat(agent.stop()).as("exit code after SIGTERM").isIn(0, 143);
    }
    Files2.deleteTree(work.resolve("data/new.etcd"));
    try (AgentProcess agent = startAgent("agent-3.log"); MemberClient etcd = etcd()) {
      assertThat(agent.log()).contains("initialisation done: RESTORED");
      for (int round = 0; round < 3; round++) {
        assertThat(countPrefix(etcd, "/round-" + round + "/")).isEqualTo(100);
      }
    }
  }

  @Test
  void anUnreachableS3StoreFailsInitialisationClearlyAndARetrySucceedsOnceItIsBack()
      throws Exception {
    S3ProxyServer s3 = new S3ProxyServer(work.resolve("s3"));
    int s3Port = s3.endpoint().getPort();
    s3.createBucket("backups");
    args = new ArrayList<>(args.subList(0, args.indexOf("--store-provider=Local")));
    args.addAll(List.of("--store-provider=S3", "--store-container=backups",
        "--store-endpoint-override=" + s3.endpoint(), "--store-secret-dir=" + s3.secretDir(),
        "--full-snapshot-schedule=0 0 1 1 *", "--delta-snapshot-period=1s"));
    try (AgentProcess agent = startAgent("agent-1.log"); MemberClient etcd = etcd()) {
      putKeys(etcd, "/s3/", 0, 1_000);
      agent.post(AgentApi.SNAPSHOT_FULL);
      agent.stop();
    }
    s3.close();
    Files2.deleteTree(work.resolve("data/new.etcd"));

    try (AgentProcess agent = new AgentProcess(args, HOST, serverPort,
        logs.resolve("agent-2.log"))) {
      Awaitility.await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(
          () -> agent.get(AgentApi.INITIALIZATION_STATUS).body().startsWith("Failed"));
      assertThat(agent.get(AgentApi.INITIALIZATION_STATUS).body())
          .contains("backup store s3://backups/default--etcd-test/v2/: cannot list")
          .contains("the data directory was left unchanged");
      assertThat(work.resolve("data")).isEmptyDirectory();
      assertThat(agent.get(AgentApi.HEALTHZ).statusCode()).as("/healthz before etcd runs")
          .isEqualTo(503);

      try (S3ProxyServer back = new S3ProxyServer(work.resolve("s3"), s3Port)) {
        agent.awaitReady(Duration.ofSeconds(90));
        try (MemberClient etcd = etcd()) {
          assertThat(countPrefix(etcd, "/s3/")).isEqualTo(1_000);
        }
        assertThat(agent.log()).contains("initialisation done: RESTORED");
        assertThat(agent.get(AgentApi.METRICS).body()).contains("etcdbr_restoration_duration"
            + "_seconds_count{restore=\"single_node\",succeeded=\"true\"} 1\n");
        agent.stop();
      }
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start()
        .waitFor()).as("kill -" + signal).isZero();
  }

  static void putKeys(MemberClient etcd, String prefix, int from, int count) throws Exception {
    KV kv = etcd.client().getKVClient();
    List<CompletableFuture<?>> batch = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      batch.add(kv.put(cloud.gardener.druid.agent.testing.LocalEtcd.bytes(prefix + i),
          cloud.gardener.druid.agent.testing.LocalEtcd.bytes("value-" + i)));
      if (batch.size() == 500) {
        CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        batch.clear();
      }
    }
    CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
  }
}
