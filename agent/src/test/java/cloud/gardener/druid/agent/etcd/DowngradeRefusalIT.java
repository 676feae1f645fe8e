package cloud.gardener.druid.agent.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd 3.7's own answers to the downgrade steps the operator sends through the agent: the
 * refusals come back with etcd's reason (the operator reports it and restarts nothing, see
 * RolloutExecutorTest), and nothing changes on a refusal.
 */
class DowngradeRefusalIT {

  private static final String HOST = "127.0.0.1";

  @TempDir
  Path work;
  private EtcdProcess etcd;
  private MemberClient client;

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (etcd != null) {
      etcd.stop(Duration.ofSeconds(10));
    }
  }

  @Test
  void etcdRefusesATargetOtherThanOneMinorBelowAndASecondDowngradeWithItsReason()
      throws Exception {
    URI clientUrl = url();
    URI peerUrl = url();
    etcd = EtcdProcess.start(EtcdBuilds.directory("3.7").resolve("etcd"), List.of(
        "--name=m0", "--data-dir=" + work.resolve("m0"),
        "--listen-client-urls=" + clientUrl, "--advertise-client-urls=" + clientUrl,
        "--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster=m0=" + peerUrl, "--initial-cluster-state=new"),
        ProcessBuilder.Redirect.appendTo(AgentProcess.logDir("DowngradeRefusalIT")
            .resolve("m0.log").toFile()));
    client = new MemberClient(clientUrl, Optional.empty());
    Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> client.clusterVersion().orElse("").startsWith("3.7."));

    assertThatThrownBy(() -> client.downgrade(Downgraded.Action.VALIDATE, "3.5"))
        .isInstanceOf(EtcdException.class)
        .hasMessageContaining("invalid downgrade target version");
    assertThatThrownBy(() -> client.downgrade(Downgraded.Action.ENABLE, "3.5"))
        .isInstanceOf(EtcdException.class)
        .hasMessageContaining("invalid downgrade target version");
    assertThat(client.clusterVersion()).as("a refused downgrade changes nothing")
        .hasValueSatisfying(v -> assertThat(v).startsWith("3.7."));
    assertThat(client.status().downgradeTarget()).isNull();

    client.downgrade(Downgraded.Action.ENABLE, "3.6");
    // etcd checks the target against the cluster version first, which its version monitor
    // lowers to the target soon after the enable (at once on an idle machine, later on a busy
    // one): only a target valid for the lowered version meets the in-progress check
    Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> "3.6".equals(client.status().downgradeTarget())
            && client.clusterVersion().orElse("").startsWith("3.6"));
    assertThatThrownBy(() -> client.downgrade(Downgraded.Action.ENABLE, "3.5"))
        .isInstanceOf(EtcdException.class)
        .hasMessageContaining("downgrade job in progress");
    assertThat(client.status().downgradeTarget()).as("the first downgrade goes on")
        .isEqualTo("3.6");

    client.downgrade(Downgraded.Action.CANCEL, "3.6");
    Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> client.status().downgradeTarget() == null);
  }

  private static URI url() throws IOException {
    return URI.create("http://" + HOST + ":" + LoopbackPorts.on(HOST));
  }
}
