package cloud.gardener.druid.testenv.controlplane;

import cloud.gardener.druid.testenv.process.BuildScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kube-apiserver, kube-controller-manager, etcd, etcdctl and etcdutl binaries, built (or
 * found in the cache) by {@code testenv/controlplane/build.sh}. Located once per JVM.
 */
public final class ControlPlaneBinaries {

  static final String BUILD_SCRIPT = "testenv/controlplane/build.sh";
  private static volatile Path cached;

  private ControlPlaneBinaries() {
  }

  /** The directory holding the binaries; runs the build script on first use in this JVM. */
  public static synchronized Path directory() {
    if (cached == null) {
      String override = System.getProperty("druid.binDir", System.getenv("DRUID_BIN_DIR"));
      cached = override != null && !override.isBlank() ? Path.of(override) : build(repoRoot());
    }
    return cached;
  }

  public static Path etcd() {
    return directory().resolve("etcd");
  }

  /**
   * The checkout root: system property {@code druid.repoRoot} (set by surefire and failsafe),
   * else the nearest directory above the working directory that holds the build script.
   */
  public static Path repoRoot() {
    String property = System.getProperty("druid.repoRoot");
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath().normalize();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(BUILD_SCRIPT))) {
        return dir;
      }
    }
    throw new IllegalStateException("cannot find " + BUILD_SCRIPT + " above "
        + Path.of("").toAbsolutePath() + "; set -Ddruid.repoRoot=<checkout> or"
        + " -Ddruid.binDir=<directory with kube-apiserver and etcd>");
  }

  /** Runs the build script; its progress goes to stderr as it comes (a cold build is long). */
  private static Path build(Path repoRoot) {
    Path dir;
    try {
      dir = BuildScript.run(repoRoot.resolve(BUILD_SCRIPT), List.of(), System.err::println);
    } catch (IllegalStateException e) {
      throw new IllegalStateException("building the local control plane failed: "
          + e.getMessage(), e);
    }
    if (!Files.isExecutable(dir.resolve("kube-apiserver"))) {
      throw new IllegalStateException(BUILD_SCRIPT + " printed " + dir
          + " but it holds no kube-apiserver");
    }
    return dir;
  }

}
