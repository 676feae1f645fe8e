package cloud.gardener.druid.devtools.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The figures of one {@code druid bench scale} run.
 *
 * @param operatorJvm              the operator's JVM flags
 * @param createSeconds            sending the N create requests
 * @param reconciledAfterCreate   first create → the hibernated Etcds / every Etcd fulfil the
 *                                rollout predicate
 * @param restartReadySeconds      new operator process → its /readyz answers 200
 * @param restartChanged           Etcds whose spec was changed while the operator was down
 * @param reconciledAfterRestart  new operator process → the hibernated / every Etcd fulfil it
 *                                again
 * @param steady                   the quiet window with the operator running
 * @param withoutOperator          the same window with the operator stopped; null if skipped
 * @param specChangeMillis         one Etcd among N: patch → observedGeneration seen, each change
 */
record ScaleReport(FleetPlan plan, List<String> operatorJvm, double createSeconds,
    Phase reconciledAfterCreate, double restartReadySeconds, int restartChanged,
    Phase reconciledAfterRestart, WindowFigures steady, WindowFigures withoutOperator,
    List<Long> specChangeMillis) {

  /** The busiest request kinds listed in the table. */
  static final int TOP_REQUESTS = 12;

  @JsonProperty
  Long specChangeP50() {
    return specChangeMillis.isEmpty() ? null : Percentiles.of(specChangeMillis, 50);
  }

  @JsonProperty
  Long specChangeP99() {
    return specChangeMillis.isEmpty() ? null : Percentiles.of(specChangeMillis, 99);
  }

  /**
   * Requests/s the operator made in the steady window, WATCH excluded, counted by its own
   * client ({@code etcddruid_client_requests_total}), not by the difference of two windows
   * (that counted other components' work, e.g. kube-controller-manager's Events, as its).
   */
  @JsonProperty
  Double operatorRequestsPerSecond() {
    return steady.operatorRequests() == null ? null : steady.operatorRequests().perSecond();
  }

  /** The other clients' requests in the same window: every client's minus the operator's. */
  RequestRates others() {
    return steady.operatorRequests() == null ? steady.requests()
        : steady.requests().minus(steady.operatorRequests());
  }

  @JsonProperty
  double otherRequestsPerSecond() {
    return others().perSecond();
  }

  void printTable(PrintWriter out) {
    out.printf("druid bench scale: %d Etcds (%d hibernated, %d with 1 member, %d with 3;"
        + " %d member pods)%n", plan.etcds(), plan.hibernated(), plan.single(), plan.triple(),
        plan.members());
    out.println("operator JVM: " + String.join(" ", operatorJvm));
    row(out, "create requests sent", "%.1f s", createSeconds);
    row(out, "hibernated ones reconciled after creation", "%.1f s",
        reconciledAfterCreate.hibernated());
    row(out, "all reconciled after creation", "%.1f s", reconciledAfterCreate.all());
    row(out, "operator restart: ready", "%.1f s", restartReadySeconds);
    row(out, "operator restart: hibernated ones reconciled (" + restartChanged
        + " changed while down)", "%.1f s", reconciledAfterRestart.hibernated());
    row(out, "operator restart: all reconciled", "%.1f s", reconciledAfterRestart.all());
    if (!specChangeMillis.isEmpty()) {
      row(out, "spec change acted on, p50 / p99 (" + specChangeMillis.size() + " changes)",
          "%s", specChangeP50() + " / " + specChangeP99() + " ms");
    }
    out.printf("steady state over %.0f s:%n", steady.seconds());
    row(out, "  API requests/s, all clients (WATCH excluded)", "%.2f",
        steady.requests().perSecond());
    row(out, "  API requests/s of the operator (its client's counter)", "%.2f",
        operatorRequestsPerSecond());
    row(out, "  API requests/s of the other clients (all - operator)", "%.2f",
        otherRequestsPerSecond());
    if (withoutOperator != null) {
      row(out, "  API requests/s, all clients, operator stopped", "%.2f",
          withoutOperator.requests().perSecond());
    }
    row(out, "  WATCH requests opened/s, all clients", "%.2f",
        steady.requests().watchesOpenedPerSecond());
    if (steady.operatorRequests() != null) {
      row(out, "  WATCH requests opened/s by the operator", "%.2f",
          steady.operatorRequests().watchesOpenedPerSecond());
    }
    row(out, "  operator CPU (% of a core)", "%.1f", steady.operatorCpuPercent());
    row(out, "  kube-apiserver CPU (% of a core)", "%.1f", steady.apiServerCpuPercent());
    if (withoutOperator != null) {
      row(out, "  kube-apiserver CPU, operator stopped", "%.1f",
          withoutOperator.apiServerCpuPercent());
    }
    row(out, "  operator RSS", "%.0f MiB", steady.operatorRssMib());
    row(out, "  operator heap used / max", "%s", String.format("%.0f / %.0f MiB",
        steady.operatorHeapUsedMib(), steady.operatorHeapMaxMib()));
    if (steady.operatorRequests() != null) {
      out.println("  the operator's requests/s (verb resource):");
      top(out, steady.operatorRequests());
    }
    out.println("  the other clients' busiest requests/s (verb resource):");
    top(out, others());
    out.flush();
  }

  private static void top(PrintWriter out, RequestRates rates) {
    List<Map.Entry<String, Double>> top = topRequests(rates.byVerbAndResource());
    if (top.isEmpty()) {
      out.println("    none");
    }
    top.forEach(e -> out.printf("    %-52s %8.2f%n", e.getKey(), e.getValue()));
  }

  static List<Map.Entry<String, Double>> topRequests(Map<String, Double> byKey) {
    return byKey.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .limit(TOP_REQUESTS).toList();
  }

  private static void row(PrintWriter out, String what, String format, Object value) {
    out.printf("  %-60s %s%n", what, value == null ? "-" : String.format(format, value));
  }

  String json() {
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
          .writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
