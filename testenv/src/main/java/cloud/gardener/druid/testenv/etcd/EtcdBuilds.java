package cloud.gardener.druid.testenv.etcd;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.process.BuildScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * etcd, etcdctl and etcdutl of each etcd minor the member image ships, built (or found in the
 * cache) by {@code testenv/etcd/build.sh} into {@code <bin cache>/etcd-v<version>/}: the layout
 * the agent's {@code --etcd-versions-dir} reads, which the node simulator hands to our image's
 * containers. 3.6 is the control plane's etcd; the others are built on first use.
 */
public final class EtcdBuilds {

  static final String BUILD_SCRIPT = "testenv/etcd/build.sh";
  private static final Map<String, Path> BUILT = new ConcurrentHashMap<>();

  private EtcdBuilds() {
  }

  /** The directory of one minor's binaries ("3.5" → …/etcd-v3.5.36), built when missing. */
  public static Path directory(String minor) {
    if (!minor.matches("^3\\.[0-9]{1,2}$")) {
      throw new IllegalArgumentException("not an etcd minor: " + minor);
    }
    return BUILT.computeIfAbsent(minor, EtcdBuilds::build);
  }

  /** The directory holding every built etcd-v&lt;version&gt;/ (3.6's always). */
  public static Path versionsDirectory() {
    return directory("3.6").getParent();
  }

  private static Path build(String minor) {
    Path dir;
    try {
      dir = BuildScript.run(ControlPlaneBinaries.repoRoot().resolve(BUILD_SCRIPT),
          List.of("v" + minor), System.err::println);
    } catch (IllegalStateException e) {
      throw new IllegalStateException("building etcd " + minor + " failed: " + e.getMessage(), e);
    }
    if (!Files.isExecutable(dir.resolve("etcd"))) {
      throw new IllegalStateException(BUILD_SCRIPT + " printed " + dir + " but it holds no etcd");
    }
    return dir;
  }
}
