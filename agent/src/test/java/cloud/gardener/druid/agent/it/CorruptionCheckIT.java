package cloud.gardener.druid.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.ClusterState;
import cloud.gardener.druid.agent.etcd.EtcdBinaryVersion;
import cloud.gardener.druid.agent.etcd.EtcdConfigBuilder;
import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.AgentJson;
import cloud.gardener.druid.api.agent.MemberReport;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * etcd's corruption checks in the members (docs/backup-verification.md): every etcd minor
 * runs with them, and a member whose database was changed while it was stopped is refused by
 * etcd's initial check before it serves anything, and named by its agent.
 */
class CorruptionCheckIT {

  private static final String[] HOSTS = {"127.0.0.31", "127.0.0.32", "127.0.0.33"};

  @TempDir
  Path work;
  private final List<AgentProcess> started = new ArrayList<>();

  @AfterEach
  void stopAll() throws Exception {
    for (AgentProcess agent : started) {
      agent.close();
    }
  }

  /**
   * etcd of each minor accepts the flags the agent's config builder writes for it, and a
   * restarted member checks its data before it serves and runs the periodic check.
   */
  @ParameterizedTest
  @ValueSource(strings = {"3.5", "3.6", "3.7"})
  void everyEtcdMinorRunsWithItsCorruptionChecks(String minor) throws Exception {
    Path bin = EtcdBuilds.directory(minor);
    int client = LoopbackPorts.on(HOSTS[0]);
    int peer = LoopbackPorts.on(HOSTS[0]);
    URI peerUrl = URI.create("http://" + HOSTS[0] + ":" + peer);
    MemberConfig member = new MemberConfig("etcd-test-0", "etcd-test", "default", HOSTS[0],
        HOSTS[0], client, peer, Map.of("etcd-test-0", peerUrl), "default-etcd-test",
        work.resolve("new.etcd"), Optional.empty(), Optional.empty());
    EtcdTuning tuning = EtcdTuning.defaults(bin);
    int etcdMinor = EtcdBinaryVersion.minor(tuning.etcd());
    assertThat(etcdMinor).isEqualTo(Integer.parseInt(minor.substring(2)));
    Path log = work.resolve("etcd-" + minor + ".log");
    List<String> flags = EtcdConfigBuilder.flags(EtcdConfigBuilder.config(member, tuning,
        Map.of("etcd-test-0", peerUrl), ClusterState.NEW, etcdMinor));
    URI clientUrl = URI.create("http://" + HOSTS[0] + ":" + client);
    try (EtcdProcess etcd = EtcdProcess.start(tuning.etcd(), flags, Redirect.appendTo(
        log.toFile())); MemberClient c = new MemberClient(clientUrl, Optional.empty())) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .failFast("etcd exited; see " + log, () -> !etcd.isAlive())
          .until(() -> LocalEtcd.value(c, "/none").isEmpty());
      c.client().getKVClient().put(LocalEtcd.bytes("/k"), LocalEtcd.bytes("v"))
          .get(30, TimeUnit.SECONDS);
    }
    try (EtcdProcess etcd = EtcdProcess.start(tuning.etcd(), flags, Redirect.appendTo(
        log.toFile())); MemberClient c = new MemberClient(clientUrl, Optional.empty())) {
      Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .failFast("etcd exited; see " + log, () -> !etcd.isAlive())
          .until(() -> LocalEtcd.value(c, "/k").isPresent());
    }
    assertThat(Files.readString(log)).as("etcd " + minor + "'s log " + log)
        .contains("initial corruption checking passed; no corruption")
        .contains("enabled corruption checking")
        .doesNotContainPattern("deprecated[^\\n]*(corrupt|hash-check)");
  }

  @Test
  void aMemberWhoseDatabaseChangedWhileStoppedIsRefusedBeforeItServesAndNamed()
      throws Exception {
    Path logs = AgentProcess.logDir("CorruptionCheckIT");
    int client = LoopbackPorts.on(HOSTS[0]);
    int peer = LoopbackPorts.on(HOSTS[0]);
    int server = LoopbackPorts.on(HOSTS[0]);
    List<String> cluster = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      cluster.add("etcd-test-" + i + "=http://" + HOSTS[i] + ":" + peer);
    }
    List<List<String>> args = new ArrayList<>();
    AgentProcess[] agents = new AgentProcess[3];
    for (int i = 0; i < 3; i++) {
      args.add(AgentArgs.member("etcd-test-" + i, HOSTS[i], client, peer, server,
          String.join(",", cluster), work.resolve("member-" + i + "/new.etcd")));
      agents[i] = start(args.get(i), HOSTS[i], server, logs.resolve("agent-" + i + ".log"));
    }
    for (AgentProcess agent : agents) {
      agent.awaitReady(Duration.ofSeconds(90));
    }
    try (MemberClient etcd = etcd(0, client)) {
      etcd.client().getKVClient().put(LocalEtcd.bytes("/config/replicas"),
          LocalEtcd.bytes("replicas=3")).get(30, TimeUnit.SECONDS);
      SingleMemberAgentIT.putKeys(etcd, "/data/", 0, 200);
    }
    // every member has applied every write before member 2 stops
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
      try (MemberClient etcd = etcd(2, client)) {
        return LocalEtcd.value(etcd, "/data/199").isPresent();
      }
    });
    agents[2].stop();
    Path db = work.resolve("member-2/new.etcd/member/snap/db");
    int changed = replaceAll(db, "replicas=3", "replicas=9");
    assertThat(changed).as("copies of the value in " + db).isPositive();

    agents[2] = start(args.get(2), HOSTS[2], server, logs.resolve("agent-2-corrupted.log"));
    AgentProcess corrupted = agents[2];
    MemberReport report = Awaitility.await().atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
        .failFast("the agent exited; see its log", () -> !corrupted.process().isAlive())
        .until(() -> report(corrupted), r -> r.corruption() != null);

    assertThat(report.name()).isEqualTo("etcd-test-2");
    assertThat(report.corruption()).startsWith("etcd's initial corruption check found this"
            + " member's data differs from its peers'")
        .contains("etcd refused to start and serves no client")
        .endsWith("replace this member's volume (EtcdOpsTask replaceMemberVolume,"
            + " kubectl druid replace-member-volume)");
    assertThat(report.etcd()).as("no etcd runs").isNull();
    assertThat(corrupted.get(AgentApi.READYZ).statusCode()).isEqualTo(503);
    // no client ever read the changed value: nothing listens on the member's client port
    try (MemberClient etcd = etcd(2, client)) {
      assertThatThrownBy(() -> etcd.client().getKVClient().get(
          LocalEtcd.bytes("/config/replicas")).get(5, TimeUnit.SECONDS)).isNotNull();
    }
    assertThat(corrupted.log()).contains("found data inconsistency with peers")
        .contains("member etcd-test-2: etcd's initial corruption check");
    // the agent stays up to say so instead of starting etcd again and again
    assertThat(corrupted.process().waitFor(3, TimeUnit.SECONDS)).isFalse();
    try (MemberClient etcd = etcd(0, client)) {
      assertThat(LocalEtcd.value(etcd, "/config/replicas")).hasValue("replicas=3");
    }
  }

  private AgentProcess start(List<String> args, String host, int server, Path log)
      throws Exception {
    AgentProcess agent = new AgentProcess(args, host, server, log);
    started.add(agent);
    return agent;
  }

  private static MemberClient etcd(int i, int client) {
    return new MemberClient(URI.create("http://" + HOSTS[i] + ":" + client), Optional.empty());
  }

  private static MemberReport report(AgentProcess agent) throws Exception {
    HttpResponse<String> r = agent.get(AgentApi.MEMBER_STATUS);
    return AgentJson.read(r.body(), MemberReport.class);
  }

  /** Changes every copy of {@code from} in the file to {@code to} (same length), in place. */
  private static int replaceAll(Path file, String from, String to) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    byte[] a = from.getBytes(StandardCharsets.UTF_8);
    byte[] b = to.getBytes(StandardCharsets.UTF_8);
    int count = 0;
    for (int i = 0; i + a.length <= bytes.length; i++) {
      if (java.util.Arrays.equals(bytes, i, i + a.length, a, 0, a.length)) {
        System.arraycopy(b, 0, bytes, i, b.length);
        count++;
      }
    }
    Files.write(file, bytes);
    return count;
  }
}
