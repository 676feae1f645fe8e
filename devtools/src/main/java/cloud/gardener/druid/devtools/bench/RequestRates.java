package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * API requests per second between two scrapes of a request counter labelled {@code verb},
 * {@code resource} and {@code subresource}: kube-apiserver's {@code apiserver_request_total}
 * (every client) or the operator's own {@code etcddruid_client_requests_total}. WATCH
 * requests are counted apart (each is a watch opened, not its events), and so are
 * non-resource requests such as the scrapes themselves.
 *
 * @param perSecond  requests to resources other than WATCH, per second
 * @param watchesOpenedPerSecond WATCH requests started per second
 * @param byVerbAndResource per second, keyed {@code VERB resource[/subresource]}, highest first
 *                          in the table; WATCH and non-resource requests left out
 */
record RequestRates(double perSecond, double watchesOpenedPerSecond,
    Map<String, Double> byVerbAndResource) {

  static final String COUNTER = "apiserver_request_total";
  /** {@code ClientRequests.COUNTER} of the operator's metrics. */
  static final String OPERATOR_COUNTER = "etcddruid_client_requests_total";

  /** Of every client, from kube-apiserver's counter. */
  static RequestRates between(PrometheusScrape from, PrometheusScrape to, double seconds) {
    return between(from, to, seconds, COUNTER);
  }

  static RequestRates between(PrometheusScrape from, PrometheusScrape to, double seconds,
      String counter) {
    if (seconds <= 0) {
      throw new IllegalArgumentException("window must be positive, was " + seconds + " s");
    }
    Map<String, Double> before = counts(from, counter);
    Map<String, Double> after = counts(to, counter);
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

  /**
   * What the other clients asked: this window's rates minus {@code part}'s (the operator's,
   * counted by itself), per kind and in total; a kind that {@code part} alone made is left
   * out. Both must cover the same window.
   */
  RequestRates minus(RequestRates part) {
    Map<String, Double> byKey = new TreeMap<>();
    byVerbAndResource.forEach((key, rate) -> {
      double rest = rate - part.byVerbAndResource().getOrDefault(key, 0.0);
      if (rest > 1e-9) {
        byKey.put(key, rest);
      }
    });
    return new RequestRates(Math.max(0, perSecond - part.perSecond()),
        Math.max(0, watchesOpenedPerSecond - part.watchesOpenedPerSecond()), byKey);
  }

  /** Summed over codes, scopes and versions, keyed {@code VERB resource[/subresource]}. */
  private static Map<String, Double> counts(PrometheusScrape scrape, String counter) {
    Map<String, Double> counts = new TreeMap<>();
    for (PrometheusScrape.Sample s : scrape.samples(counter)) {
      String resource = s.labels().getOrDefault("resource", "");
      String sub = s.labels().getOrDefault("subresource", "");
      String key = s.labels().getOrDefault("verb", "?").toUpperCase(Locale.ROOT) + " " + resource
          + (sub.isEmpty() || resource.isEmpty() ? "" : "/" + sub);
      counts.merge(key, s.value(), Double::sum);
    }
    return counts;
  }
}
