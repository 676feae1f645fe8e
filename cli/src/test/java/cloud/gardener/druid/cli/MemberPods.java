package cloud.gardener.druid.cli;

import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.testenv.node.ShellImage;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/** Pods standing for an Etcd's members, run by the node simulator: a bash script as "etcd". */
final class MemberPods {

  static final Duration TIMEOUT = Duration.ofSeconds(60);

  private MemberPods() {
  }

  /** Creates pod {@code name} running {@code script}; returns once its log has {@code line}. */
  static void start(KubernetesClient client, String name, String script, String line) {
    client.pods().resource(new PodBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withTerminationGracePeriodSeconds(1L)
        .addNewContainer().withName("etcd").withImage(ShellImage.DEFAULT_IMAGE)
        .withArgs(script).endContainer()
        .endSpec().build()).create();
    await().atMost(TIMEOUT).ignoreExceptions()
        .until(() -> client.pods().withName(name).getLog().contains(line));
  }
}
