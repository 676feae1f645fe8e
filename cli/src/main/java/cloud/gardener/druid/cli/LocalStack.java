package cloud.gardener.druid.cli;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.node.DruidImage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code druid local up} runs: a {@link LocalCluster} (control plane + node simulator)
 * and then every {@link Hook} in order.
 *
 * <p>Extension point: the operator and a sample 3-member Etcd are to be added as hooks in
 * {@link #hooks()} once the operator exists (e.g. install the CRDs, start the operator as a
 * pod of our image or in-process, apply {@code examples/etcd-3-local.yaml}).
 */
final class LocalStack implements AutoCloseable {

  /** One more thing {@code druid local up} starts on the cluster. */
  interface Hook {
    /** A line for the summary, e.g. "operator (pod druid-system/etcd-druid-0)". */
    String start(LocalCluster cluster);
  }

  private final LocalCluster cluster;
  private final List<String> started = new ArrayList<>();

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

  /** Hooks run after the cluster is up. None yet: see the class comment. */
  static List<Hook> hooks() {
    return List.of();
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
    started.forEach(s -> out.println("  running:     " + s));
    if (hooks().isEmpty()) {
      out.println("  not yet:     the operator and a sample 3-member Etcd (not part of this build)");
    }
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
    cluster.close();
  }
}
