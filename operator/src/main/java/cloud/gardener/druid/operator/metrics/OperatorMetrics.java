package cloud.gardener.druid.operator.metrics;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;

/**
 * The operator's metrics: JOSDK's reconcile metrics (its Micrometer support, JOSDK's names:
 * {@code operator_sdk_*}), the per-Etcd gauges ({@link EtcdGauges}), the process figures
 * under Go's names ({@code process_*}) and Micrometer's JVM figures, in one Prometheus
 * registry that {@link MetricsServer} serves. Upstream etcd-druid's own metrics are its
 * compaction metrics ({@code etcddruid_compaction_*}); the compaction controller registers
 * them on {@link #registry()} under upstream's names. The operator's own API requests are
 * counted by {@link ClientRequests} when its client carries {@link #clientRequests()}; failed
 * reconciles by {@link ReconcileErrors}.
 */
public final class OperatorMetrics implements AutoCloseable {

  private final PrometheusMeterRegistry registry;
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final EtcdGauges etcds;
  private final Metrics josdk;
  private final ClientRequests clientRequests;

  public OperatorMetrics() {
    PrometheusRegistry prometheus = new PrometheusRegistry();
    ProcessMetrics.builder().register(prometheus);
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, prometheus,
        Clock.SYSTEM);
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmInfoMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    this.etcds = new EtcdGauges(registry);
    this.josdk = new WithEtcdGauges(MicrometerMetrics.withoutPerResourceMetrics(registry),
        etcds, new ReconcileErrors(registry));
    this.clientRequests = new ClientRequests(registry);
  }

  /** Counts the requests of the client it is added to: give it the operator's client. */
  public ClientRequests clientRequests() {
    return clientRequests;
  }

  /** What JOSDK reports reconciles to ({@code ConfigurationServiceOverrider.withMetrics}). */
  public Metrics josdk() {
    return josdk;
  }

  public MeterRegistry registry() {
    return registry;
  }

  public EtcdGauges etcds() {
    return etcds;
  }

  /** The Prometheus text format 0.0.4 of every family. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }

  /**
   * JOSDK's Micrometer metrics, and the Etcd gauges fed from the Etcds JOSDK hands over:
   * each event of an Etcd carries its newest version (the status this operator wrote), each
   * reconcile the version it reconciles; a deletion or a finished cleanup removes them.
   */
  static final class WithEtcdGauges implements Metrics {

    private final Metrics delegate;
    private final EtcdGauges etcds;
    private final ReconcileErrors errors;

    WithEtcdGauges(Metrics delegate, EtcdGauges etcds, ReconcileErrors errors) {
      this.delegate = delegate;
      this.etcds = etcds;
      this.errors = errors;
    }

    @Override
    public void controllerRegistered(Controller<? extends HasMetadata> controller) {
      delegate.controllerRegistered(controller);
      errors.registered(controller.getConfiguration().getName());
    }

    @Override
    public void receivedEvent(Event event, Map<String, Object> metadata) {
      delegate.receivedEvent(event, metadata);
      if (event instanceof ResourceEvent resourceEvent
          && resourceEvent.getResource().orElse(null) instanceof Etcd etcd) {
        if (resourceEvent.getAction() == ResourceAction.DELETED) {
          etcds.gone(etcd.getMetadata().getNamespace(), etcd.getMetadata().getName());
        } else {
          etcds.seen(etcd);
        }
      }
    }

    @Override
    public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo,
        Map<String, Object> metadata) {
      delegate.reconcileCustomResource(resource, retryInfo, metadata);
      if (resource instanceof Etcd etcd && etcd.getMetadata().getDeletionTimestamp() == null) {
        etcds.seen(etcd);
      }
    }

    @Override
    public void failedReconciliation(HasMetadata resource, Exception exception,
        Map<String, Object> metadata) {
      delegate.failedReconciliation(resource, exception, metadata);
      errors.failed(metadata.get(Constants.CONTROLLER_NAME) instanceof String name ? name
          : HasMetadata.getKind(resource.getClass()).toLowerCase(java.util.Locale.ROOT));
    }

    @Override
    public void reconciliationExecutionStarted(HasMetadata resource,
        Map<String, Object> metadata) {
      delegate.reconciliationExecutionStarted(resource, metadata);
    }

    @Override
    public void reconciliationExecutionFinished(HasMetadata resource,
        Map<String, Object> metadata) {
      delegate.reconciliationExecutionFinished(resource, metadata);
    }

    @Override
    public void cleanupDoneFor(ResourceID resourceId, Map<String, Object> metadata) {
      delegate.cleanupDoneFor(resourceId, metadata);
      resourceId.getNamespace().ifPresent(ns -> {
        if (metadata.get(Constants.RESOURCE_GVK_KEY) instanceof GroupVersionKind gvk
            && HasMetadata.getKind(Etcd.class).equals(gvk.getKind())) {
          etcds.gone(ns, resourceId.getName());
        }
      });
    }

    @Override
    public void finishedReconciliation(HasMetadata resource, Map<String, Object> metadata) {
      delegate.finishedReconciliation(resource, metadata);
    }

    @Override
    public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
      return delegate.timeControllerExecution(execution);
    }

    @Override
    public <T extends Map<?, ?>> T monitorSizeOf(T map, String name) {
      return delegate.monitorSizeOf(map, name);
    }
  }
}
