package cloud.gardener.druid.operator.bench;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.it.BenchmarkAccess;
import cloud.gardener.druid.operator.it.EtcdEdits;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import cloud.gardener.druid.testenv.node.DruidImage;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * How long an etcd minor upgrade of a 3-member Etcd takes, beside a plain restart roll of the
 * same cluster (a quota change) at each version: edit to rollout predicate true, in seconds
 * and seconds per member. The upgrade adds its full snapshot before the first member and the
 * wait for etcd's cluster version after the last. Not a test: run it and read the figures.
 *
 * <pre>
 * mvn -q -pl operator test-compile exec:exec -Dexec.executable=java -Dexec.classpathScope=test \
 *   "-Dexec.args=-Ddruid.repoRoot=$PWD -cp %classpath \
 *   cloud.gardener.druid.operator.bench.EtcdUpgradeBenchmark"
 * </pre>
 */
public final class EtcdUpgradeBenchmark {

  private static final int MEMBERS = 3;

  private EtcdUpgradeBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    EtcdBuilds.directory("3.5");
    EtcdBuilds.directory("3.7");
    Path work = Files.createTempDirectory("druid-bench");
    try (LocalCluster cluster = LocalCluster.start(new LocalCluster.Options(work,
        DruidImage.classpath(DruidImage.DEFAULT_IMAGE, System.getProperty("java.class.path"),
            DruidImage.DEFAULT_MAIN_CLASSES), null));
        BenchmarkAccess bench = BenchmarkAccess.start(cluster, "bench")) {
      KubernetesClient client = bench.client();
      bench.createSample("etcd-3-local.yaml", "bench", MEMBERS,
          e -> e.getSpec().getEtcd().setVersion("3.5"));
      waitComplete(client);
      int quotaMi = 2048;
      for (String to : List.of("3.6", "3.7")) {
        int quota = ++quotaMi;
        double roll = timed(client, e -> e.getSpec().getEtcd().setQuota(new Quantity(quota + "Mi")));
        double upgrade = timed(client, e -> e.getSpec().getEtcd().setVersion(to));
        System.out.printf("restart roll before %s: %.1f s (%.1f s per member);"
            + " upgrade to %s: %.1f s (%.1f s per member), %.2fx%n", to, roll, roll / MEMBERS,
            to, upgrade, upgrade / MEMBERS, upgrade / roll);
      }
    }
  }

  /** Seconds from the edit to the rollout predicate true for the new generation. */
  private static double timed(KubernetesClient client, Consumer<Etcd> edit) {
    long start = System.nanoTime();
    Etcd changed = EtcdEdits.edit(client, "bench", edit::accept);
    long generation = changed.getMetadata().getGeneration();
    client.resources(Etcd.class).withName("bench").waitUntilCondition(e -> e != null
        && e.getMetadata().getGeneration() == generation && RolloutCompletion.isComplete(e),
        10, TimeUnit.MINUTES);
    return (System.nanoTime() - start) / 1e9;
  }

  private static void waitComplete(KubernetesClient client) {
    client.resources(Etcd.class).withName("bench").waitUntilCondition(
        e -> e != null && RolloutCompletion.isComplete(e), 5, TimeUnit.MINUTES);
  }
}
