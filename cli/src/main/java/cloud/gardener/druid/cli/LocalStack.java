package cloud.gardener.druid.cli;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.node.DruidImage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code druid local up} runs: a {@link LocalCluster} (control plane + node simulator)
 * and then every {@link Hook} in order: the operator (in this process) and a sample 3-member
 * Etcd, waited for until its rollout is complete.
 */
final class LocalStack implements AutoCloseable {

  /** One more thing {@code druid local up} starts on the cluster. */
  interface Hook {
    Started start(LocalCluster cluster);
  }

  /** A line for the summary and how to stop what was started. */
  record Started(String summary, AutoCloseable stop) {
  }

  private final LocalCluster cluster;
  private final List<Started> started = new ArrayList<>();

  private LocalStack(LocalCluster cluster) {
    this.cluster = cluster;
  }

  static LocalStack start(LocalDirectory dir) {
    LocalCluster cluster = LocalCluster.start(new LocalCluster.Options(dir.path(), druidImage(),
        dir.ledgerFile()));
    LocalStack stack = new LocalStack(cluster);
    try {
      for (Hook hook : hooks()) {
        stack.started.add(hook.start(cluster));
      }
      return stack;
    } catch (RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  /** Hooks run after the cluster is up, in order. */
  static List<Hook> hooks() {
    return List.of(new LocalOperatorHook(), new LocalSampleEtcdHook());
  }

  LocalCluster cluster() {
    return cluster;
  }

  void printSummary(PrintWriter out) {
    out.println("  kubeconfig:  " + cluster.kubeconfig()
        + "   (export KUBECONFIG=" + cluster.kubeconfig() + ")");
    out.println("  api server:  " + cluster.controlPlane().apiServerUrl());
    out.println("  node:        " + cluster.simulator().nodeName() + " (pod addresses from "
        + cluster.simulator().podSubnet() + ")");
    cluster.ledger().entries().forEach(e ->
        out.println("  process:     " + e.name() + " (pid " + e.pid() + ")"));
    started.forEach(s -> out.println("  running:     " + s.summary()));
    out.println("  logs:        " + cluster.workDir().resolve("logs"));
  }

  private static DruidImage druidImage() {
    String classpath = System.getProperty("java.class.path");
    String image = System.getProperty("druid.image", DruidImage.DEFAULT_IMAGE);
    if (classpath.endsWith(".jar") && !classpath.contains(java.io.File.pathSeparator)) {
      return DruidImage.jar(image, Path.of(classpath));
    }
    return DruidImage.classpath(image, classpath, DruidImage.DEFAULT_MAIN_CLASSES);
  }

  @Override
  public void close() {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).stop().close();
      } catch (Exception e) {
        System.err.println("druid local: stopping " + started.get(i).summary() + ": " + e);
      }
    }
    cluster.close();
  }
}
