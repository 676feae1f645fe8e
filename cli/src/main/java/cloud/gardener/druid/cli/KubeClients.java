package cloud.gardener.druid.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Kubernetes clients for the commands: --kubeconfig, else $KUBECONFIG / ~/.kube, else in-cluster. */
final class KubeClients {

  private KubeClients() {
  }

  static KubernetesClient create(String kubeconfig) {
    if (kubeconfig == null) {
      return new KubernetesClientBuilder().build();
    }
    Path path = Path.of(kubeconfig);
    try {
      return new KubernetesClientBuilder()
          .withConfig(Config.fromKubeconfig(Files.readString(path))).build();
    } catch (IOException e) {
      throw new UserError("cannot read kubeconfig " + path + ": " + e.getMessage());
    }
  }
}
