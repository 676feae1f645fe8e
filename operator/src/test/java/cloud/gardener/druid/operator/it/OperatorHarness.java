package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.LocalCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** Installs the CRDs and runs the operator in the test JVM for one namespace. */
public final class OperatorHarness implements AutoCloseable {

  private final KubernetesClient client;
  private final EtcdOperator operator;
  private final Path localStoreRoot;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  private OperatorHarness(KubernetesClient client, EtcdOperator operator, Path localStoreRoot) {
    this.client = client;
    this.operator = operator;
    this.localStoreRoot = localStoreRoot;
  }

  public static OperatorHarness start(LocalCluster cluster, String namespace, boolean autoReconcile)
      throws java.io.IOException {
    return start(cluster, namespace, autoReconcile, false);
  }

  /** With {@code leaderElection}, the lease lives in {@code namespace}. */
  public static OperatorHarness start(LocalCluster cluster, String namespace, boolean autoReconcile,
      boolean leaderElection) throws java.io.IOException {
    KubernetesClient client = cluster.newClient(null);
    installCrds(client);
    Path stores = Files.createDirectories(cluster.workDir().resolve("stores").resolve(namespace));
    EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(Set.of(namespace),
        autoReconcile, leaderElection, leaderElection ? namespace : null,
        new OperatorSettings(OperatorSettings.DEFAULT_IMAGE, stores.toString())));
    operator.start();
    return new OperatorHarness(client, operator, stores);
  }

  static synchronized void installCrds(KubernetesClient client) {
    CrdInstaller.install(client, "etcd-druid-tests");
  }

  /** The operator's leader-election identity, also the reporting instance of its events. */
  public String identity() {
    return operator.identity();
  }

  public Path localStoreRoot() {
    return localStoreRoot;
  }

  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    operator.close();
    client.close();
  }
}
