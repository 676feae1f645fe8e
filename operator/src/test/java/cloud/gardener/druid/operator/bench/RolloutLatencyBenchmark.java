package cloud.gardener.druid.operator.bench;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.it.BenchmarkAccess;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.node.DruidImage;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Measures how long after the last member of a rollout is ready the completion predicate
 * turns true (upstream refreshes status every 15 s; the target here is under 1 s). Not a
 * test: run it and read the figures.
 *
 * <pre>
 * mvn -q -pl operator test-compile exec:exec -Dexec.executable=java -Dexec.classpathScope=test \
 *   "-Dexec.args=-Ddruid.repoRoot=$PWD -cp %classpath \
 *   cloud.gardener.druid.operator.bench.RolloutLatencyBenchmark ROLLOUTS MEMBERS"   # e.g. 20 1
 * </pre>
 */
public final class RolloutLatencyBenchmark {

  private RolloutLatencyBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int rollouts = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int members = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    Path work = Files.createTempDirectory("druid-bench");
    try (LocalCluster cluster = LocalCluster.start(new LocalCluster.Options(work,
        DruidImage.classpath(DruidImage.DEFAULT_IMAGE, System.getProperty("java.class.path"),
            DruidImage.DEFAULT_MAIN_CLASSES), null));
        BenchmarkAccess bench = BenchmarkAccess.start(cluster, "bench")) {
      KubernetesClient client = bench.client();
      Etcd etcd = bench.createSample("etcd-3-local.yaml", "bench", members);
      waitComplete(client);
      List<Long> millis = new ArrayList<>();
      for (int i = 0; i < rollouts; i++) {
        int quotaMi = 1024 + i + 1;
        try (var recorder = bench.record(client.resources(Etcd.class).withName("bench").get())) {
          Etcd changed = cloud.gardener.druid.operator.it.EtcdEdits.edit(client, "bench",
              e -> e.getSpec().getEtcd().setQuota(new Quantity(quotaMi + "Mi")));
          waitComplete(client);
          long generation = changed.getMetadata().getGeneration();
          // the recorder's own watch may deliver the completing status a moment later
          org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
              .until(() -> recorder.readyToComplete(generation).isPresent());
          Duration d = recorder.readyToComplete(generation).orElseThrow();
          millis.add(d.toMillis());
          System.out.printf("rollout %2d: last member ready -> predicate true in %d ms%n", i + 1,
              d.toMillis());
        }
      }
      Collections.sort(millis);
      System.out.printf("%d rollouts of a %d-member Etcd: p50 %d ms, p99 %d ms, max %d ms"
          + " (upstream: up to 15000 ms status refresh)%n", millis.size(), members,
          percentile(millis, 50), percentile(millis, 99), millis.get(millis.size() - 1));
    }
  }

  static long percentile(List<Long> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  private static void waitComplete(KubernetesClient client) {
    client.resources(Etcd.class).withName("bench").waitUntilCondition(
        e -> e != null && RolloutCompletion.isComplete(e), 5, TimeUnit.MINUTES);
  }
}
