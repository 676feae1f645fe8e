package cloud.gardener.druid.cli.bench;

import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import java.util.Map;
import java.util.TreeMap;

/**
 * API requests per second between two scrapes of kube-apiserver's {@code /metrics}, from the
 * counter {@code apiserver_request_total}. WATCH requests are counted apart (each is a watch
 * opened, not its events), and so are non-resource requests such as the scrapes themselves.
 *
 * @param perSecond  requests to resources other than WATCH, per second
 * @param watchesOpenedPerSecond WATCH requests started per second
 * @param byVerbAndResource per second, keyed {@code VERB resource[/subresource]}, highest first
 *                          in the table; WATCH and non-resource requests left out
 */
record RequestRates(double perSecond, double watchesOpenedPerSecond,
    Map<String, Double> byVerbAndResource) {

  static final String COUNTER = "apiserver_request_total";

  static RequestRates between(PrometheusScrape from, PrometheusScrape to, double seconds) {
    if (seconds <= 0) {
      throw new IllegalArgumentException("window must be positive, was " + seconds + " s");
    }
    Map<String, Double> before = counts(from);
    Map<String, Double> after = counts(to);
    Map<String, Double> byKey = new TreeMap<>();
    double total = 0;
    double watches = 0;
    for (var e : after.entrySet()) {
      // a series born inside the window started from 0
      double delta = e.getValue() - before.getOrDefault(e.getKey(), 0.0);
      if (delta <= 0) {
        continue;
      }
      String key = e.getKey();
      if (key.startsWith("WATCH ")) {
        watches += delta;
      } else if (!key.endsWith(" ")) {
        total += delta;
        byKey.merge(key, delta / seconds, Double::sum);
      }
    }
    return new RequestRates(total / seconds, watches / seconds, byKey);
  }

  /** Summed over codes, scopes and versions, keyed {@code VERB resource[/subresource]}. */
  private static Map<String, Double> counts(PrometheusScrape scrape) {
    Map<String, Double> counts = new TreeMap<>();
    for (PrometheusScrape.Sample s : scrape.samples(COUNTER)) {
      String resource = s.labels().getOrDefault("resource", "");
      String sub = s.labels().getOrDefault("subresource", "");
      String key = s.labels().getOrDefault("verb", "?") + " " + resource
          + (sub.isEmpty() || resource.isEmpty() ? "" : "/" + sub);
      counts.merge(key, s.value(), Double::sum);
    }
    return counts;
  }
}
