package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.testing.LocalStores;
import cloud.gardener.druid.testenv.LocalCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * One operator running in the test JVM for one namespace, with the CRDs installed. ITs get it
 * from {@link WithOperator}; benchmarks start it through {@link BenchmarkAccess}.
 */
public final class OperatorHarness implements AutoCloseable {

  private final LocalCluster cluster;
  private final EtcdOperator.Options options;
  private final String namespace;
  private KubernetesClient client;
  private EtcdOperator operator;
  private boolean closed;

  private OperatorHarness(LocalCluster cluster, EtcdOperator.Options options, String namespace) {
    this.cluster = cluster;
    this.options = options;
    this.namespace = namespace;
  }

  public static OperatorHarness start(LocalCluster cluster, String namespace, boolean autoReconcile)
      throws IOException {
    return start(cluster, namespace, autoReconcile, false);
  }

  /** With {@code leaderElection}, the lease lives in {@code namespace}. */
  public static OperatorHarness start(LocalCluster cluster, String namespace, boolean autoReconcile,
      boolean leaderElection) throws IOException {
    Path stores = Files.createDirectories(cluster.workDir().resolve("stores").resolve(namespace));
    OperatorHarness harness = new OperatorHarness(cluster, new EtcdOperator.Options(
        Set.of(namespace), autoReconcile, leaderElection, leaderElection ? namespace : null,
        new OperatorSettings(OperatorSettings.DEFAULT_IMAGE, stores.toString())), namespace);
    harness.run();
    return harness;
  }

  static synchronized void installCrds(KubernetesClient client) {
    CrdInstaller.install(client, "etcd-druid-tests");
  }

  private void run() {
    client = cluster.newClient(null);
    installCrds(client);
    operator = new EtcdOperator(client, options);
    operator.start();
  }

  /**
   * Stops this operator unless it is stopped already, and starts a new one with the same
   * options, as a crashed operator pod is replaced: the new one knows only what the cluster
   * holds.
   */
  public synchronized void restart() {
    stop();
    closed = false;
    run();
  }

  /** The operator's leader-election identity, also the reporting instance of its events. */
  public synchronized String identity() {
    return operator.identity();
  }

  /** The host directory of the Local store {@code container} of this operator's namespace. */
  public Path localStore(String container) {
    return LocalStores.dir(settings(), namespace, container);
  }

  /** The directory the agent writes the Etcd's snapshots to in its Local store. */
  public Path snapshots(Etcd etcd) {
    return LocalStores.snapshots(settings(), etcd);
  }

  /** The Prometheus text of the running operator's metrics, as its /metrics serves them. */
  public synchronized String scrapeMetrics() {
    return operator.metrics().scrape();
  }

  /** The settings the operator runs with (image, Local store root). */
  public OperatorSettings settings() {
    return options.settings();
  }

  @Override
  public synchronized void close() {
    stop();
  }

  private void stop() {
    if (closed) {
      return;
    }
    closed = true;
    operator.close();
    client.close();
  }
}
