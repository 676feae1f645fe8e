package cloud.gardener.druid.agent.metrics;

import io.micrometer.core.instrument.Clock;
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

/**
 * Everything the agent's {@code /metrics} serves: etcd-backup-restore's families
 * ({@link BackupRestoreMetrics}), the process figures under the names Go's process collector
 * gives them ({@code process_cpu_seconds_total}, {@code process_resident_memory_bytes},
 * {@code process_open_fds}, … from the Prometheus client's {@link ProcessMetrics}, as
 * Gardener's allow-list names them), and the JVM figures of Micrometer's binders in place of
 * Go's {@code go_*}.
 */
public final class AgentMetrics implements AutoCloseable {

  private final BackupRestoreMetrics backupRestore;
  private final PrometheusMeterRegistry jvm;
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public AgentMetrics() {
    this(new BackupRestoreMetrics());
  }

  public AgentMetrics(BackupRestoreMetrics backupRestore) {
    this.backupRestore = backupRestore;
    PrometheusRegistry registry = new PrometheusRegistry();
    ProcessMetrics.builder().register(registry);
    this.jvm = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, registry, Clock.SYSTEM);
    new JvmMemoryMetrics().bindTo(jvm);
    gc.bindTo(jvm);
    new JvmThreadMetrics().bindTo(jvm);
    new ClassLoaderMetrics().bindTo(jvm);
    new JvmInfoMetrics().bindTo(jvm);
    new ProcessorMetrics().bindTo(jvm);
  }

  public BackupRestoreMetrics backupRestore() {
    return backupRestore;
  }

  /** The Prometheus text format 0.0.4 of every family. */
  public String scrape() {
    return backupRestore.scrape() + jvm.scrape();
  }

  @Override
  public void close() {
    gc.close();
    jvm.close();
  }
}
