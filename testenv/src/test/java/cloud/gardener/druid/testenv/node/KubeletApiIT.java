package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.TestPods;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pods/log through the real API server to the node simulator's kubelet API, as kubectl reads
 * it: the API server dials the node's InternalIP (loopback) and the kubelet port the node
 * publishes, verifying the kubelet's certificate; the kubelet accepts only the API server's.
 */
@LocalKubernetes
class KubeletApiIT {

  @Test
  void theNodePublishesItsLoopbackAddressAndKubeletPort(KubernetesClient client,
      LocalCluster cluster) {
    Node node = client.nodes().withName(cluster.simulator().nodeName()).get();

    assertThat(node.getStatus().getAddresses()).anyMatch(a -> a.getType().equals("InternalIP")
        && a.getAddress().equals("127.0.0.1"));
    assertThat(node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort())
        .isPositive();
  }

  @Test
  void logsTailAndSinceSelectLinesOfTheRunningContainer(KubernetesClient client) {
    client.pods().resource(TestPods.shell("printer", "for i in 1 2 3 4 5; do echo line $i;"
        + " done; exec sleep 600").build()).create();
    TestPods.awaitReady(client, "printer");
    var logs = client.pods().withName("printer");
    await().atMost(TestPods.TIMEOUT).until(() -> logs.getLog().contains("line 5"));

    assertThat(logs.getLog()).isEqualTo("line 1\nline 2\nline 3\nline 4\nline 5\n");
    assertThat(logs.tailingLines(2).getLog()).isEqualTo("line 4\nline 5\n");
    String stamped = logs.usingTimestamps().tailingLines(1).getLog();
    assertThat(stamped).matches("\\d{4}-\\S+Z line 5\n");
    Instant fifth = Instant.parse(stamped.substring(0, stamped.indexOf(' ')));
    assertThat(fifth).isBetween(Instant.now().minusSeconds(120), Instant.now());
    assertThat(logs.sinceSeconds(3600).getLog()).startsWith("line 1\n");
  }

  @Test
  void previousIsTheLogOfTheContainerThatRanBefore(KubernetesClient client) {
    client.pods().resource(TestPods.shell("restarter", "echo run $(date +%s%N); exit 1")
        .build()).create();
    client.pods().withName("restarter").waitUntilCondition(p -> restarts(p) >= 1,
        TestPods.TIMEOUT.toSeconds(), TimeUnit.SECONDS);

    String previous = client.pods().withName("restarter").terminated().getLog();
    assertThat(previous).matches("run \\d+\n");
    await().atMost(TestPods.TIMEOUT).untilAsserted(() -> assertThat(
        client.pods().withName("restarter").getLog()).matches("run \\d+\n")
        .isNotEqualTo(previous));

    client.pods().resource(TestPods.shell("first-run", "exec sleep 600").build()).create();
    TestPods.awaitReady(client, "first-run");
    assertThatThrownBy(() -> client.pods().withName("first-run").terminated().getLog())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("previous terminated container \"main\" in pod \"first-run\""
            + " not found");
  }

  @Test
  void kubectlLogsFollowStreamsUntilTheContainerExits(LocalCluster cluster, TestNamespace ns,
      KubernetesClient client, @TempDir Path dir) throws Exception {
    Path release = dir.resolve("release");
    client.pods().resource(TestPods.shell("follower", "echo waiting; until [ -e " + release
        + " ]; do sleep 0.1; done; echo released").editSpec().withRestartPolicy("Never")
        .endSpec().build()).create();
    TestPods.awaitReady(client, "follower");

    Process kubectl = new ProcessBuilder("kubectl", "--kubeconfig",
        cluster.kubeconfig().toString(), "-n", ns.name(), "logs", "-f", "follower")
        .redirectErrorStream(true).start();
    List<String> lines = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> new BufferedReader(
        new InputStreamReader(kubectl.getInputStream(), StandardCharsets.UTF_8)).lines()
        .forEach(lines::add));
    await().atMost(TestPods.TIMEOUT).until(() -> lines.contains("waiting"));
    assertThat(kubectl.isAlive()).isTrue();

    Files.createFile(release);
    assertThat(kubectl.waitFor(TestPods.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    reading.get(TestPods.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    assertThat(kubectl.exitValue()).as(String.join("\n", lines)).isZero();
    assertThat(lines).containsExactly("waiting", "released");
    assertThat(Files.readString(cluster.controlPlane().workDir().resolve(
        "logs/kube-apiserver.log"))).doesNotContain("lookup " + cluster.simulator().nodeName());
  }

  @Test
  void execIsRefusedWithTheReasonInsteadOfHanging(LocalCluster cluster, TestNamespace ns,
      KubernetesClient client) throws Exception {
    client.pods().resource(TestPods.shell("idle", "exec sleep 600").build()).create();
    TestPods.awaitReady(client, "idle");

    Process kubectl = new ProcessBuilder("kubectl", "--kubeconfig",
        cluster.kubeconfig().toString(), "-n", ns.name(), "exec", "idle", "--", "true")
        .redirectErrorStream(true).start();
    String output = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(kubectl.waitFor(TestPods.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(kubectl.exitValue()).isNotZero();
    assertThat(output).contains("serves container logs only, not exec");
  }

  private static int restarts(Pod p) {
    return p.getStatus() == null || p.getStatus().getContainerStatuses() == null
        || p.getStatus().getContainerStatuses().isEmpty() ? 0
        : p.getStatus().getContainerStatuses().get(0).getRestartCount();
  }
}
