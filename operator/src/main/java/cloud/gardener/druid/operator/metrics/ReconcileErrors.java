package cloud.gardener.druid.operator.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code etcddruid_reconcile_errors_total{controller}}: reconciles that threw, per controller,
 * present at zero from the controller's registration. JOSDK's own failure counters appear only
 * with the first failure, so an alert on them has nothing to read on a healthy operator and
 * cannot tell "no failures" from "not scraped".
 */
public final class ReconcileErrors {

  /** Micrometer's name; Prometheus sees it with {@code _total}. */
  public static final String NAME = "etcddruid_reconcile_errors";

  private final MeterRegistry registry;

  public ReconcileErrors(MeterRegistry registry) {
    this.registry = registry;
  }

  public void registered(String controller) {
    counter(controller);
  }

  public void failed(String controller) {
    counter(controller).increment();
  }

  private Counter counter(String controller) {
    return Counter.builder(NAME).tag("controller", controller)
        .description("Reconciles that ended with an error, per controller.")
        .register(registry);
  }
}
