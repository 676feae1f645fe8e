package cloud.gardener.druid.testenv.junit;

import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.node.DruidImage;
import cloud.gardener.druid.testenv.node.OciImages;
import java.nio.file.Path;
import java.util.List;

/**
 * The one {@link LocalCluster} of a test JVM, started on first use and stopped by a shutdown
 * hook, or when the last test plan using it ends: each plan's root store holds a
 * {@link Use}, so a test that runs a nested JUnit launcher in the same JVM does not stop the
 * cluster under the outer plan's later classes. Configured by system
 * properties:
 * <ul>
 *   <li>{@code druid.testenv.workDir}: default {@code target/druid-testenv-<pid>}</li>
 *   <li>{@code druid.testenv.druidJar}: run our image as {@code java -jar <jar>}; default: the
 *       test JVM's own classpath, one main class per subcommand
 *       ({@link DruidImage#DEFAULT_MAIN_CLASSES})</li>
 *   <li>{@code druid.testenv.druidImage}: our image's name; default
 *       {@link DruidImage#DEFAULT_IMAGE}</li>
 *   <li>{@code druid.testenv.ociImage}: {@code true} runs our image from the OCI archive
 *       {@code images/build.sh} builds (when the cluster starts, cached), with runc
 *       ({@link OciImages#build})</li>
 * </ul>
 */
final class SharedCluster implements AutoCloseable {

  private static SharedCluster instance;
  private final LocalCluster cluster;

  private SharedCluster(LocalCluster cluster) {
    this.cluster = cluster;
  }

  /** One test plan's use of the cluster; the cluster stops when the last use closes. */
  static final class Use implements AutoCloseable {
    private boolean closed;

    private final LocalCluster cluster = instance.cluster;

    LocalCluster cluster() {
      return cluster;
    }

    @Override
    public void close() {
      synchronized (SharedCluster.class) {
        if (!closed) {
          closed = true;
          if (--uses == 0) {
            instance.close();
            instance = null;
          }
        }
      }
    }
  }

  private static int uses;

  /** A use of the cluster for one test plan, starting the cluster on first use. */
  static synchronized Use use() {
    get();
    uses++;
    return new Use();
  }

  private static synchronized SharedCluster get() {
    if (instance == null) {
      LocalCluster.Options options = new LocalCluster.Options(workDir(), druidImage(), null);
      if (Boolean.getBoolean("druid.testenv.ociImage")) {
        // built (or found cached) now, before any test's timed wait: a cold build takes minutes
        java.nio.file.Path archive = OciImages.build(List.of(), System.err::println);
        options = options.withOciImages(List.of(OciImages.fromArchive(
            System.getProperty("druid.testenv.druidImage", DruidImage.DEFAULT_IMAGE),
            () -> archive)));
      }
      LocalCluster cluster = LocalCluster.start(options);
      instance = new SharedCluster(cluster);
      Runtime.getRuntime().addShutdownHook(new Thread(instance::close, "local-cluster-stop"));
    }
    return instance;
  }

  LocalCluster cluster() {
    return cluster;
  }

  private static Path workDir() {
    String configured = System.getProperty("druid.testenv.workDir");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return Path.of("target", "druid-testenv-" + ProcessHandle.current().pid());
  }

  private static DruidImage druidImage() {
    String image = System.getProperty("druid.testenv.druidImage", DruidImage.DEFAULT_IMAGE);
    String jar = System.getProperty("druid.testenv.druidJar");
    if (jar != null && !jar.isBlank()) {
      return DruidImage.jar(image, Path.of(jar));
    }
    return DruidImage.classpath(image, System.getProperty("java.class.path"),
        DruidImage.DEFAULT_MAIN_CLASSES);
  }

  private boolean closed;

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      cluster.close();
    }
  }
}
