package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.api.agent.MemberStatus;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.testing.EtcdBinaries;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two plain etcd members on 127.0.0.1: the leader hands over, a follower does nothing. */
class LeaderHandOverIT {

  private static final String HOST = "127.0.0.1";

  @TempDir
  Path work;
  private final List<EtcdProcess> members = new ArrayList<>();
  private final List<MemberClient> clients = new ArrayList<>();

  @AfterEach
  void stop() {
    clients.forEach(MemberClient::close);
    members.forEach(m -> m.stop(Duration.ofSeconds(10)));
  }

  @Test
  void theLeaderMovesLeadershipToTheOtherVotingMemberAndAFollowerLeavesItAlone()
      throws Exception {
    Path logs = AgentProcess.logDir("LeaderHandOverIT");
    List<URI> clientUrls = List.of(url(), url());
    List<URI> peerUrls = List.of(url(), url());
    String cluster = "m0=" + peerUrls.get(0) + ",m1=" + peerUrls.get(1);
    for (int i = 0; i < 2; i++) {
      members.add(EtcdProcess.start(EtcdBinaries.dir().resolve("etcd"), List.of(
          "--name=m" + i, "--data-dir=" + work.resolve("m" + i),
          "--listen-client-urls=" + clientUrls.get(i),
          "--advertise-client-urls=" + clientUrls.get(i),
          "--listen-peer-urls=" + peerUrls.get(i),
          "--initial-advertise-peer-urls=" + peerUrls.get(i),
          "--initial-cluster=" + cluster, "--initial-cluster-state=new"),
          ProcessBuilder.Redirect.appendTo(logs.resolve("m" + i + ".log").toFile())));
      clients.add(new MemberClient(clientUrls.get(i), Optional.empty()));
    }
    Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> !clients.get(0).status().leaderId().equals("0"));
    int leader = clients.get(0).status().role() == MemberStatus.Role.Leader ? 0 : 1;
    int follower = 1 - leader;

    assertThat(LeaderHandOver.ifLeader(clients.get(follower), Duration.ofSeconds(30)))
        .as("a follower moves nothing").isEmpty();
    assertThat(clients.get(leader).status().role()).isEqualTo(MemberStatus.Role.Leader);

    assertThat(LeaderHandOver.ifLeader(clients.get(leader), Duration.ofSeconds(30)))
        .hasValue("m" + follower);
    assertThat(clients.get(follower).status().role()).isEqualTo(MemberStatus.Role.Leader);
  }

  private static URI url() throws IOException {
    return URI.create("http://" + HOST + ":" + LoopbackPorts.on(HOST));
  }
}
