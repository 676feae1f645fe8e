package cloud.gardener.druid.operator.it;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts the API requests a client makes, watches aside (they are the informers' standing
 * connections, not a cost per object): what the operator process asks of the API server.
 */
final class RequestCounter implements Interceptor {

  private final List<String> requests = new ArrayList<>();
  private volatile long lastNanos = System.nanoTime();

  /** An admin client of {@code kubeconfig} whose requests this counter counts. */
  KubernetesClient client(Path kubeconfig) {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      return new KubernetesClientBuilder().withConfig(config)
          .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", this)).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String query = request.uri().getRawQuery();
    if (query != null && query.contains("watch=true")) {
      return;
    }
    synchronized (this) {
      requests.add(request.method() + " " + request.uri().getRawPath());
    }
    lastNanos = System.nanoTime();
  }

  synchronized int count() {
    return requests.size();
  }

  /** The requests from the {@code from}-th on. */
  synchronized List<String> since(int from) {
    return new ArrayList<>(requests.subList(from, requests.size()));
  }

  /** Seconds since the last request. */
  double quietSeconds() {
    return (System.nanoTime() - lastNanos) / 1e9;
  }
}
