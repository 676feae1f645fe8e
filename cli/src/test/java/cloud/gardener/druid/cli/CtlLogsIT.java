package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl druid logs} reads pods/log through the real API server from the node
 * simulator's kubelet API: member pods of the shell test image, run by the simulator.
 */
@LocalKubernetes
class CtlLogsIT {

  static Kubectl kubectl;

  @BeforeAll
  static void installCrds(LocalCluster cluster, TestNamespace ns) {
    try (KubernetesClient admin = cluster.newClient(null)) {
      CrdInstaller.install(admin, "druid-cli-tests");
    }
    kubectl = new Kubectl(cluster.kubeconfig(), ns.name());
  }

  /** A member pod whose container "etcd" runs {@code script}; returns once it logged "up". */
  private static void memberPod(KubernetesClient client, String name, String script) {
    MemberPods.start(client, name, "echo up; " + script, "up\n");
  }

  private static String lines(String pod) {
    return "echo '{\"level\":\"info\",\"msg\":\"line 1 of " + pod + "\"}';"
        + " echo '{\"level\":\"info\",\"msg\":\"line 2 of " + pod + "\"}'; exec sleep 600";
  }

  @Test
  void logsReadsEachMembersLogThroughTheApiServer(KubernetesClient client) {
    CtlCommandsIT.create(client, "logs-a", null);
    for (int i = 0; i < 3; i++) {
      memberPod(client, "logs-a-" + i, lines("logs-a-" + i));
    }
    await().atMost(MemberPods.TIMEOUT).until(() -> client.pods().withName("logs-a-2").getLog()
        .contains("line 2"));

    Kubectl.Run one = kubectl.run("logs", "logs-a", "logs-a-1", "--tail", "2");
    assertThat(one.code()).as(one.err()).isZero();
    assertThat(one.out()).isEqualTo("{\"level\":\"info\",\"msg\":\"line 1 of logs-a-1\"}\n"
        + "{\"level\":\"info\",\"msg\":\"line 2 of logs-a-1\"}\n");

    Kubectl.Run all = kubectl.run("logs", "logs-a", "--since", "1h");
    assertThat(all.code()).isZero();
    assertThat(all.out()).contains("[logs-a-0] up\n", "[logs-a-0] {\"level\"",
        "[logs-a-2] {\"level\":\"info\",\"msg\":\"line 2 of logs-a-2\"}");

    assertThat(kubectl.run("logs", "logs-a", "logs-a-7").code())
        .isEqualTo(ExitCodes.NOT_FOUND);
  }

  @Test
  void followPrintsNewLinesAsTheMemberWritesThemAndPreviousTheLastRun(KubernetesClient client,
      @TempDir Path dir) throws Exception {
    CtlCommandsIT.create(client, "logs-f", null);
    Path release = dir.resolve("release");
    memberPod(client, "logs-f-0", "until [ -e " + release + " ]; do sleep 0.1; done;"
        + " echo released; exit 7");

    Kubectl.Running following = kubectl.start("logs", "logs-f", "logs-f-0", "-f");
    await().atMost(MemberPods.TIMEOUT).until(() -> following.out().toString().equals("up\n"));
    assertThat(following.code()).isNotDone();
    Files.createFile(release);
    Kubectl.Run followed = following.join();
    assertThat(followed.code()).as(followed.err()).isZero();
    assertThat(followed.out()).isEqualTo("up\nreleased\n");

    client.pods().withName("logs-f-0").waitUntilCondition(p -> p.getStatus()
        .getContainerStatuses().get(0).getRestartCount() >= 1, MemberPods.TIMEOUT.toSeconds(),
        java.util.concurrent.TimeUnit.SECONDS);
    Kubectl.Run previous = kubectl.run("logs", "logs-f", "logs-f-0", "--previous");
    assertThat(previous.code()).as(previous.err()).isZero();
    assertThat(previous.out()).isEqualTo("up\nreleased\n");
  }
}
