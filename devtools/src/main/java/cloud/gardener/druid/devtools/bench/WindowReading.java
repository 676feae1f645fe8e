package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * What the benchmark reads at the start and the end of a window: kube-apiserver's request
 * counters and /proc of the API server, and, while it runs, the operator's /proc and metrics.
 */
record WindowReading(long nanos, PrometheusScrape apiServerMetrics, ProcSample apiServer,
    Optional<ProcSample> operator, Optional<PrometheusScrape> operatorMetrics) {

  static WindowReading take(KubernetesClient admin, long apiServerPid, OperatorProcess operator)
      throws InterruptedException {
    long now = System.nanoTime();
    PrometheusScrape api = PrometheusScrape.parse(admin.raw("/metrics"));
    ProcSample apiProc = ProcSample.read(apiServerPid);
    if (operator == null) {
      return new WindowReading(now, api, apiProc, Optional.empty(), Optional.empty());
    }
    return new WindowReading(now, api, apiProc, Optional.of(ProcSample.read(operator.pid())),
        Optional.of(operator.scrapeMetrics()));
  }

  /** Micrometer's {@code jvm_memory_used_bytes} of every heap pool, summed. */
  static double heapUsedBytes(PrometheusScrape operatorMetrics) {
    return operatorMetrics.samples("jvm_memory_used_bytes").stream()
        .filter(s -> "heap".equals(s.labels().get("area")))
        .mapToDouble(PrometheusScrape.Sample::value).sum();
  }

  /** {@code jvm_memory_max_bytes} of the heap pools that have a maximum, summed. */
  static double heapMaxBytes(PrometheusScrape operatorMetrics) {
    return operatorMetrics.samples("jvm_memory_max_bytes").stream()
        .filter(s -> "heap".equals(s.labels().get("area")) && s.value() > 0)
        .mapToDouble(PrometheusScrape.Sample::value).sum();
  }
}
