package cloud.gardener.druid.testenv.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.TestPods;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.process.Signals;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@LocalKubernetes
class PodLifecycleIT {

  /** Backoff of a first restart (250 ms), a status sync, and room for a loaded machine. */
  private static final Duration RESTART_BOUND = Duration.ofSeconds(4);

  @Test
  void readyPodRunsOnItsOwnAddressAndIsReachableByDnsName(KubernetesClient client,
      LocalCluster cluster, TestNamespace ns) {
    client.services().resource(new ServiceBuilder().withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withClusterIP("None").addToSelector("app", "web-0")
        .addNewPort().withPort(8080).endPort().endSpec().build()).create();
    client.pods().resource(TestPods.webServer("web-0", 8080)
        .editSpec().withHostname("web-0").withSubdomain("web").endSpec().build()).create();

    Pod web = TestPods.awaitReady(client, "web-0");

    assertThat(web.getSpec().getNodeName()).isEqualTo(cluster.simulator().nodeName());
    assertThat(web.getStatus().getPhase()).isEqualTo("Running");
    assertThat(web.getStatus().getPodIP()).startsWith("127.").isNotEqualTo("127.0.0.1");
    ContainerStatus main = web.getStatus().getContainerStatuses().get(0);
    assertThat(main.getReady()).isTrue();
    assertThat(main.getState().getRunning()).isNotNull();
    assertThat(TestPods.condition(web, "ContainersReady")).isEqualTo("True");

    String podName = "web-0.web." + ns.name() + ".svc";
    String serviceName = "web." + ns.name() + ".svc.cluster.local";
    client.pods().resource(TestPods.shell("client", "until curl -sf -o /dev/null http://"
        + podName + ":8080/ && curl -sf -o /dev/null http://" + serviceName + ":8080/;"
        + " do sleep 0.2; done; echo REACHED; exec sleep 600").build()).create();
    await().atMost(TestPods.TIMEOUT).untilAsserted(() ->
        assertThat(TestPods.log(cluster, ns.name(), "client")).contains("REACHED"));

    client.pods().withName("web-0").delete();
    client.pods().withName("web-0").waitUntilCondition(p -> p == null, 30,
        java.util.concurrent.TimeUnit.SECONDS);
    assertThat(TestPods.log(cluster, ns.name(), "web-0")).contains("got SIGTERM");
    cluster.connectionAudit().sample();
    assertThat(cluster.connectionAudit().socketsSeen()).isPositive();
    assertThat(cluster.connectionAudit().violations()).isEmpty();
  }

  @Test
  void crashedContainerIsRestartedWithItsExitCodeReported(KubernetesClient client) {
    client.pods().resource(TestPods.shell("crasher", "echo started; exit 3").build()).create();

    Pod pod = client.pods().withName("crasher").waitUntilCondition(p -> p.getStatus() != null
        && p.getStatus().getContainerStatuses() != null
        && !p.getStatus().getContainerStatuses().isEmpty()
        && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 2,
        TestPods.TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);

    assertThat(pod.getStatus().getContainerStatuses().get(0).getLastState().getTerminated()
        .getExitCode()).isEqualTo(3);
  }

  /**
   * As a kubelet ends a container's cgroup when its main process dies: a SIGKILL of the main
   * process ends its children too, and the container restarts (restartPolicy Always) at once.
   * The fault injector's agent-kill (docs/faults.md) relies on it.
   */
  @Test
  void aKilledMainProcessTakesItsChildrenAlongAndTheContainerRestarts(KubernetesClient client)
      throws Exception {
    client.pods().resource(TestPods.shell("tree", "sleep 1000 & wait").build()).create();
    Pod running = TestPods.awaitReady(client, "tree");
    long main = mainPid(running);
    long child = await().atMost(TestPods.TIMEOUT).until(
        () -> Signals.childNamed(main, "sleep"), java.util.Optional::isPresent).orElseThrow();

    long killed = System.nanoTime();
    assertThat(Signals.send(main, Signals.Signal.KILL)).isTrue();
    Pod restarted = client.pods().withName("tree").waitUntilCondition(p -> TestPods.isReady(p)
        && p.getStatus().getContainerStatuses().get(0).getRestartCount() == 1,
        TestPods.TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    Duration restart = Duration.ofNanos(System.nanoTime() - killed);

    assertThat(Signals.running(child)).as("the killed main process's child runs").isFalse();
    assertThat(mainPid(restarted)).isNotEqualTo(main);
    assertThat(restart).as("from the kill to Ready again").isLessThan(RESTART_BOUND);
  }

  private static long mainPid(Pod pod) {
    String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
    return Long.parseLong(id.substring("druid-local://".length()));
  }

  @Test
  void podNamingANonLoopbackAddressIsRefused(KubernetesClient client) {
    client.pods().resource(TestPods.shell("remote", "curl http://10.0.0.1:443/")
        .build()).create();

    Pod pod = client.pods().withName("remote").waitUntilCondition(p -> p.getStatus() != null
        && p.getStatus().getContainerStatuses() != null
        && !p.getStatus().getContainerStatuses().isEmpty()
        && p.getStatus().getContainerStatuses().get(0).getState().getWaiting() != null
        && "CreateContainerConfigError".equals(p.getStatus().getContainerStatuses().get(0)
            .getState().getWaiting().getReason()),
        TestPods.TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);

    assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(pod.getStatus().getContainerStatuses().get(0).getState().getWaiting().getMessage())
        .contains("10.0.0.1");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(client.v1().events().list().getItems())
            .anyMatch(e -> "remote".equals(e.getInvolvedObject().getName())
                && e.getMessage().contains("10.0.0.1")));
  }
}
