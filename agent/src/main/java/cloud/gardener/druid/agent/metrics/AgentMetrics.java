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
import java.util.concurrent.CompletableFuture;

/**
 * Everything the agent's {@code /metrics} serves: etcd-backup-restore's families
 * ({@link BackupRestoreMetrics}), the process figures under the names Go's process collector
 * gives them ({@code process_cpu_seconds_total}, {@code process_resident_memory_bytes},
 * {@code process_open_fds}, … from the Prometheus client's {@link ProcessMetrics}, as
 * Gardener's allow-list names them), and the JVM figures of Micrometer's binders in place of
 * Go's {@code go_*}; and the expiry of the member's certificates ({@link CertificateExpiry}).
 */
public final class AgentMetrics implements AutoCloseable {

  private final BackupRestoreMetrics backupRestore;
  /**
   * Built on a thread of its own: the binders read JMX, which on a cold JVM costs about a
   * quarter of a second that the agent's start (API, etcd) need not wait for.
   */
  private final CompletableFuture<JvmRegistry> jvm = new CompletableFuture<>();
  private volatile CertificateExpiry certificates = new CertificateExpiry(java.util.List.of());

  public AgentMetrics() {
    this(new BackupRestoreMetrics());
  }

  public AgentMetrics(BackupRestoreMetrics backupRestore) {
    this.backupRestore = backupRestore;
    Thread builder = new Thread(() -> {
      try {
        jvm.complete(new JvmRegistry());
      } catch (RuntimeException | Error e) {
        jvm.completeExceptionally(e);
      }
    }, "jvm metrics");
    builder.setDaemon(true);
    builder.start();
  }

  public BackupRestoreMetrics backupRestore() {
    return backupRestore;
  }

  /** The member's TLS files whose expiry {@code /metrics} shows. */
  public void certificates(CertificateExpiry expiry) {
    this.certificates = expiry;
  }

  /** The Prometheus text format 0.0.4 of every family. */
  public String scrape() {
    return backupRestore.scrape() + certificates.scrape() + jvm.join().registry.scrape();
  }

  @Override
  public void close() {
    jvm.join().close();
  }

  /** The process figures and Micrometer's JVM binders. */
  private static final class JvmRegistry implements AutoCloseable {
    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc = new JvmGcMetrics();

    JvmRegistry() {
      PrometheusRegistry prometheus = new PrometheusRegistry();
      ProcessMetrics.builder().register(prometheus);
      registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, prometheus, Clock.SYSTEM);
      new JvmMemoryMetrics().bindTo(registry);
      gc.bindTo(registry);
      new JvmThreadMetrics().bindTo(registry);
      new ClassLoaderMetrics().bindTo(registry);
      new JvmInfoMetrics().bindTo(registry);
      new ProcessorMetrics().bindTo(registry);
    }

    @Override
    public void close() {
      gc.close();
      registry.close();
    }
  }
}
