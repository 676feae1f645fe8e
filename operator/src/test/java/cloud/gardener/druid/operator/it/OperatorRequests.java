package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.operator.metrics.OperatorMetrics;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operator's API requests as its own metrics count them ({@code ClientRequests}, the
 * counter the benchmark reads too), watches aside: they are the informers' standing
 * connections, not a cost per object.
 */
final class OperatorRequests {

  private final OperatorMetrics metrics;

  OperatorRequests(OperatorMetrics metrics) {
    this.metrics = metrics;
  }

  /** An admin client of {@code kubeconfig} whose requests the metrics count. */
  KubernetesClient client(Path kubeconfig) {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      return new KubernetesClientBuilder().withConfig(config)
          .withHttpClientBuilderConsumer(metrics.clientRequests()::addTo).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Requests so far by {@code verb resource[/subresource]}, watches left out. */
  Map<String, Long> counts() {
    Map<String, Long> counts = new TreeMap<>();
    for (Counter c : metrics.registry().find("etcddruid.client.requests").counters()) {
      if ("watch".equals(c.getId().getTag("verb"))) {
        continue;
      }
      String sub = c.getId().getTag("subresource");
      counts.put(c.getId().getTag("verb") + " " + c.getId().getTag("resource")
          + (sub == null || sub.isEmpty() ? "" : "/" + sub), (long) c.count());
    }
    return counts;
  }

  /** The requests made since {@code before} (a {@link #counts()}), by kind. */
  Map<String, Long> since(Map<String, Long> before) {
    Map<String, Long> delta = new TreeMap<>();
    counts().forEach((key, n) -> {
      long d = n - before.getOrDefault(key, 0L);
      if (d > 0) {
        delta.put(key, d);
      }
    });
    return delta;
  }

  static long total(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}
