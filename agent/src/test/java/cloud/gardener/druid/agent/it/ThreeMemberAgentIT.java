package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.Agent;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.init.GuardFile;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.AgentApi;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three agents with their etcds, each on its own loopback address (as pods have their own
 * IP), the same ports on each: a wiped member rejoins as a learner and is promoted; a member
 * whose data belongs to another Etcd refuses to start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ThreeMemberAgentIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] HOSTS = {"127.0.0.11", "127.0.0.12", "127.0.0.13"};

  @TempDir
  static Path work;
  private Path logs;
  private int clientPort;
  private int peerPort;
  private int serverPort;
  private String initialCluster;
  private final AgentProcess[] agents = new AgentProcess[3];
  private final List<AgentProcess> started = new ArrayList<>();

  @BeforeAll
  void startCluster() throws Exception {
    logs = AgentProcess.logDir("ThreeMemberAgentIT");
    clientPort = LoopbackPorts.on(HOSTS[0]);
    peerPort = LoopbackPorts.on(HOSTS[0]);
    serverPort = LoopbackPorts.on(HOSTS[0]);
    List<String> members = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      members.add(name(i) + "=http://" + HOSTS[i] + ":" + peerPort);
    }
    initialCluster = String.join(",", members);
    for (int i = 0; i < 3; i++) {
      agents[i] = start(i, "agent-" + i + ".log");
    }
    for (AgentProcess agent : agents) {
      agent.awaitReady(Duration.ofSeconds(90));
    }
  }

  @AfterAll
  void stopAll() throws Exception {
    for (AgentProcess agent : started) {
      agent.close();
    }
  }

  private static String name(int i) {
    return "etcd-test-" + i;
  }

  private Path dataDir(int i) {
    return work.resolve("member-" + i + "/new.etcd");
  }

  private AgentProcess start(int i, String log) throws Exception {
    AgentProcess agent = new AgentProcess(AgentArgs.member(name(i), HOSTS[i], clientPort,
        peerPort, serverPort, initialCluster, dataDir(i)), HOSTS[i], serverPort,
        logs.resolve(log));
    started.add(agent);
    return agent;
  }

  private MemberClient etcd(int i) {
    return new MemberClient(URI.create("http://" + HOSTS[i] + ":" + clientPort),
        Optional.empty());
  }

  private JsonNode status(int i) throws Exception {
    return JSON.readTree(agents[i].get(AgentApi.MEMBER_STATUS).body()).path("etcd");
  }

  @Test
  @Order(1)
  void theOperatorMovesLeadershipAndDefragmentsThroughTheAgents() throws Exception {
    int leader = -1;
    for (int i = 0; i < 3; i++) {
      if (status(i).path("role").asText().equals("Leader")) {
        leader = i;
      }
    }
    assertThat(leader).as("one member leads").isNotNegative();
    int target = (leader + 1) % 3;
    String targetId = status(target).path("id").asText();

    var moved = agents[leader].post(AgentApi.MEMBER_MOVE_LEADER + "?to=" + targetId);
    assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
    Awaitility.await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
        .until(() -> status(target).path("role").asText().equals("Leader"));

    var defragmented = agents[leader].post(AgentApi.DEFRAGMENT);
    assertThat(defragmented.statusCode()).isEqualTo(200);
    assertThat(defragmented.body()).contains("\"defragmented\":\"" + name(leader) + "\"");
    var notAllowed = agents[leader].get(AgentApi.MEMBER_PROMOTE);
    assertThat(notAllowed.statusCode()).isEqualTo(405);
  }

  @Test
  @Order(2)
  void aWipedMemberRejoinsAsALearnerIsPromotedAndServesAllData() throws Exception {
    try (MemberClient etcd = etcd(0)) {
      SingleMemberAgentIT.putKeys(etcd, "/data/", 0, 2_000);
    }
    String oldId = status(2).path("id").asText();
    agents[2].stop();
    Files2.deleteTree(dataDir(2));
    try (MemberClient etcd = etcd(0)) {
      SingleMemberAgentIT.putKeys(etcd, "/data/", 2_000, 500);
    }

    agents[2] = start(2, "agent-2-rejoined.log");
    agents[2].awaitReady(Duration.ofSeconds(90));
    Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> status(2).path("role").asText().equals("Member"));

    assertThat(agents[2].log()).contains("initialisation done: JOINED_AS_LEARNER")
        .contains("promoted learner etcd-test-2");
    assertThat(agents[2].get(AgentApi.METRICS).body()).as("etcd-backup-restore's rejoin metrics")
        .contains("\netcdbr_cluster_size 3\n")
        .contains("\netcdbr_is_learner 0\n")
        .contains("\netcdbr_is_learner_count_total{succeeded=\"true\"} 1\n")
        .contains("\netcdbr_member_remove_duration_seconds_count{succeeded=\"true\"} 1\n")
        .contains("\netcdbr_add_learner_duration_seconds_count{succeeded=\"true\"} 1\n")
        .contains("\netcdbr_member_promote_duration_seconds_count{succeeded=\"true\"} 1\n")
        .contains("\netcdbr_restoration_duration_seconds_count{restore=\"single_member\","
            + "succeeded=\"true\"} 1\n");
    assertThat(status(2).path("id").asText()).isNotEqualTo(oldId);
    try (MemberClient etcd = etcd(2)) {
      assertThat(countPrefix(etcd, "/data/")).isEqualTo(2_500);
      assertThat(etcd.members()).hasSize(3).noneMatch(m -> m.isLearner());
    }
  }

  @Test
  @Order(3)
  void aMemberWithTheDataOfAnotherEtcdRefusesToStart() throws Exception {
    agents[1].stop();
    new GuardFile("other-namespace", "etcd-other").writeTo(dataDir(1));

    AgentProcess refused = start(1, "agent-1-refused.log");
    assertThat(refused.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(refused.process().exitValue()).isEqualTo(Agent.EXIT_GUARD_MISMATCH).isEqualTo(65);
    assertThat(refused.log()).contains("refusing to start: the data directory " + dataDir(1)
        + " belongs to Etcd other-namespace/etcd-other, not to default/etcd-test");
  }
}
