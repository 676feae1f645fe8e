package cloud.gardener.druid.cli;

import cloud.gardener.druid.cli.shared.UserError;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Kubernetes clients for the commands: --kubeconfig, else $KUBECONFIG / ~/.kube, else in-cluster. */
final class KubeClients {

  private KubeClients() {
  }

  static KubernetesClient create(String kubeconfig) {
    return create(kubeconfig, http -> { });
  }

  /** With {@code http} adjusting the HTTP client, e.g. adding an interceptor. */
  static KubernetesClient create(String kubeconfig, Consumer<HttpClient.Builder> http) {
    if (kubeconfig == null) {
      return new KubernetesClientBuilder().withHttpClientBuilderConsumer(http).build();
    }
    Path path = Path.of(kubeconfig);
    try {
      return new KubernetesClientBuilder().withHttpClientBuilderConsumer(http)
          .withConfig(Config.fromKubeconfig(Files.readString(path))).build();
    } catch (IOException e) {
      throw new UserError("cannot read kubeconfig " + path + ": " + e.getMessage());
    }
  }
}
