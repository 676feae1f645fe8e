package cloud.gardener.druid.devtools.local;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.node.DruidImage;
import cloud.gardener.druid.testenv.node.OciImages;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What {@code druid local up} runs: a {@link LocalCluster} (control plane + node simulator)
 * and then every {@link Hook} in order: the operator (in this process) and a sample 3-member
 * Etcd, waited for until its rollout is complete.
 */
public final class LocalStack implements AutoCloseable {

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

  /**
   * @param images run our image's pods from the OCI image (built by images/build.sh, cached)
   *               with runc instead of the jar
   * @param etcdMinor the etcd minor of the sample Etcd (3.5, 3.6, 3.7)
   * @param progress where build progress goes
   */
  static LocalStack start(LocalDirectory dir, boolean images, String etcdMinor,
      Consumer<String> progress) {
    DruidImage druidImage = druidImage();
    LocalCluster.Options options = new LocalCluster.Options(dir.path(), druidImage,
        dir.ledgerFile());
    if (images) {
      Path archive = OciImages.build(druidImage.jar().map(j -> List.of("--jar", j.toString()))
          .orElse(List.of()), progress);
      options = options.withOciImages(List.of(OciImages.fromArchive(
          System.getProperty("druid.image", DruidImage.DEFAULT_IMAGE), () -> archive)));
    }
    LocalCluster cluster = LocalCluster.start(options);
    LocalStack stack = new LocalStack(cluster);
    try {
      for (Hook hook : hooks(etcdMinor)) {
        stack.started.add(hook.start(cluster));
      }
      return stack;
    } catch (RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  /** Hooks run after the cluster is up, in order. */
  static List<Hook> hooks(String etcdMinor) {
    return List.of(new LocalOperatorHook(), new LocalSampleEtcdHook(etcdMinor));
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

  /**
   * Our image as this process runs: its fat jar (the product jar instead of the developer jar,
   * as the image packs it), or else its classpath.
   */
  public static DruidImage druidImage() {
    String classpath = System.getProperty("java.class.path");
    String image = System.getProperty("druid.image", DruidImage.DEFAULT_IMAGE);
    if (classpath.endsWith(".jar") && !classpath.contains(java.io.File.pathSeparator)) {
      return DruidImage.jar(image, productJar(Path.of(classpath)));
    }
    return DruidImage.classpath(image, classpath, DruidImage.DEFAULT_MAIN_CLASSES);
  }

  /**
   * The checkout's product jar ({@code cli/target/druid.jar}, which {@code ./druid} builds with
   * the developer jar) when {@code jar} is the developer jar and it exists; else {@code jar}.
   */
  static Path productJar(Path jar) {
    Path product = Path.of(System.getProperty("druid.repoRoot", "."), "cli", "target",
        "druid.jar");
    boolean developer = jar.getFileName().toString().equals("druid-dev.jar");
    return developer && java.nio.file.Files.isRegularFile(product) ? product : jar;
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
