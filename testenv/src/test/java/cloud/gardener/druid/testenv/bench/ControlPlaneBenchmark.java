package cloud.gardener.druid.testenv.bench;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.TestPods;
import cloud.gardener.druid.testenv.controlplane.LocalControlPlane;
import cloud.gardener.druid.testenv.node.DruidImage;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Not a test. Prints control plane start times (first start of this JVM, then a second one)
 * and pod create → Ready latency (a python HTTP server with an httpGet readiness probe):
 * <pre>
 * mvn -q -pl testenv test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=cloud.gardener.druid.testenv.bench.ControlPlaneBenchmark [-Dexec.args=20]
 * </pre>
 */
public final class ControlPlaneBenchmark {

  private ControlPlaneBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    Path root = Files.createTempDirectory("druid-bench");
    System.out.printf("control plane start (first in this JVM): %d ms%n",
        timeControlPlane(root.resolve("first")));
    System.out.printf("control plane start (warm):              %d ms%n",
        timeControlPlane(root.resolve("warm")));
    try (LocalCluster cluster = LocalCluster.start(new LocalCluster.Options(root.resolve("pods"),
        DruidImage.classpath(DruidImage.DEFAULT_IMAGE, System.getProperty("java.class.path"),
            DruidImage.DEFAULT_MAIN_CLASSES), null))) {
      List<Long> latencies = podLatencies(cluster, pods);
      Collections.sort(latencies);
      System.out.printf("pod create -> Ready over %d pods: p50 %d ms, p99 %d ms, max %d ms%n",
          pods, percentile(latencies, 50), percentile(latencies, 99),
          latencies.get(latencies.size() - 1));
    }
    System.exit(0);
  }

  private static long timeControlPlane(Path dir) {
    long start = System.nanoTime();
    try (LocalControlPlane plane = LocalControlPlane.start(dir, ProcessLedger.inMemory())) {
      return (System.nanoTime() - start) / 1_000_000;
    }
  }

  private static List<Long> podLatencies(LocalCluster cluster, int pods) {
    String ns = "bench";
    KubernetesClient admin = cluster.client();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
        .endMetadata().build()).create();
    admin.serviceAccounts().inNamespace(ns).withName("default")
        .waitUntilCondition(sa -> sa != null, 60, TimeUnit.SECONDS);
    List<Long> latencies = new ArrayList<>();
    try (KubernetesClient client = cluster.newClient(ns)) {
      for (int i = 0; i < pods; i++) {
        String name = "web-" + i;
        long start = System.nanoTime();
        client.pods().resource(TestPods.webServer(name, 8080).build()).create();
        TestPods.awaitReady(client, name);
        latencies.add((System.nanoTime() - start) / 1_000_000);
      }
    }
    return latencies;
  }

  private static long percentile(List<Long> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index));
  }
}
