package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.testenv.LocalCluster;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;

/** Lets benchmarks use the IT harness (operator, samples, recorder) outside JUnit. */
public final class BenchmarkAccess implements AutoCloseable {

  private final KubernetesClient client;
  private final OperatorHarness operator;
  private final String namespace;

  private BenchmarkAccess(KubernetesClient client, OperatorHarness operator, String namespace) {
    this.client = client;
    this.operator = operator;
    this.namespace = namespace;
  }

  public static BenchmarkAccess start(LocalCluster cluster, String namespace) throws Exception {
    cluster.client().namespaces().resource(new NamespaceBuilder().withNewMetadata()
        .withName(namespace).endMetadata().build()).create();
    cluster.client().serviceAccounts().inNamespace(namespace).withName("default")
        .waitUntilCondition(sa -> sa != null, 60, java.util.concurrent.TimeUnit.SECONDS);
    return new BenchmarkAccess(cluster.newClient(namespace),
        OperatorHarness.start(cluster, namespace, true), namespace);
  }

  public KubernetesClient client() {
    return client;
  }

  public Etcd createSample(String example, String name, int replicas) throws Exception {
    return createSample(example, name, replicas, e -> { });
  }

  /** {@link #createSample} with {@code customize} applied before the create. */
  public Etcd createSample(String example, String name, int replicas,
      java.util.function.Consumer<Etcd> customize) throws Exception {
    Etcd etcd = ItSupport.load(example, namespace);
    etcd.getMetadata().setName(name);
    etcd.getSpec().setReplicas(replicas);
    customize.accept(etcd);
    return client.resource(etcd).create();
  }

  /** A recorder of the Etcd's history; {@link Recording#readyToComplete} reads it. */
  public Recording record(Etcd etcd) {
    return new Recording(RolloutRecorder.start(client, etcd, operator.settings()));
  }

  /** An open recording. */
  public static final class Recording implements AutoCloseable {
    private final RolloutRecorder recorder;

    Recording(RolloutRecorder recorder) {
      this.recorder = recorder;
    }

    public Optional<Duration> readyToComplete(long generation) {
      return recorder.readyToComplete(generation);
    }

    public String describe() {
      return recorder.describe();
    }

    @Override
    public void close() {
      recorder.close();
    }
  }

  @Override
  public void close() {
    operator.close();
    client.close();
  }
}
