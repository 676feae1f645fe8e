package cloud.gardener.druid.testenv;

import cloud.gardener.druid.testenv.node.ShellImage;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Pods of the shell test image, and waits on them. */
public final class TestPods {

  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  private TestPods() {
  }

  /** A pod running {@code script} in bash, with no probes. */
  public static PodBuilder shell(String name, String script) {
    return new PodBuilder()
        .withNewMetadata().withName(name).addToLabels("app", name).endMetadata()
        .withNewSpec()
        .withTerminationGracePeriodSeconds(10L)
        .addNewContainer().withName("main").withImage(ShellImage.DEFAULT_IMAGE)
        .withArgs(script).endContainer()
        .endSpec();
  }

  /** An HTTP server on the pod's own address and {@code port}, Ready through an httpGet probe. */
  public static PodBuilder webServer(String name, int port) {
    String script = "trap 'echo got SIGTERM; exit 0' TERM; "
        + "python3 -m http.server " + port + " --bind \"$POD_IP\" & wait";
    return shell(name, script)
        .editSpec().editFirstContainer()
        .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef()
        .withFieldPath("status.podIP").endFieldRef().endValueFrom().endEnv()
        .addNewPort().withName("http").withContainerPort(port).endPort()
        .withNewReadinessProbe().withNewHttpGet().withPath("/").withNewPort("http").endHttpGet()
        .withPeriodSeconds(1).endReadinessProbe()
        .endContainer().endSpec();
  }

  public static boolean isReady(Pod pod) {
    return pod != null && pod.getStatus() != null && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  public static String condition(Pod pod, String type) {
    return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType()))
        .map(PodCondition::getStatus).findFirst().orElse("");
  }

  public static Pod awaitReady(KubernetesClient client, String name) {
    return client.pods().withName(name).waitUntilCondition(TestPods::isReady,
        TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
  }

  public static String log(LocalCluster cluster, String namespace, String pod) {
    Path file = cluster.simulator().containerLog(namespace, pod, "main");
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "";
    }
  }
}
