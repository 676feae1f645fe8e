package cloud.gardener.druid.testenv.node;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * Container processes run on the host, so a container path such as {@code /var/etcd/data} has
 * to become the host directory of the volume mounted there. The rule, applied to every
 * command word, arg and env value of a container:
 * <ul>
 *   <li>a value equal to a mount path, or starting with {@code <mountPath>/}, gets that prefix
 *       replaced by the host directory (the longest matching mount path wins);</li>
 *   <li>the same for the part after the first {@code =} ({@code --data-dir=/var/etcd/data}).</li>
 * </ul>
 * Paths inside files (e.g. a mounted config file) are not rewritten: a process that reads such
 * a path resolves it under the env var {@value #POD_ROOT_ENV}, a directory in which every mount
 * path exists as a symlink to its host directory.
 */
public record MountPaths(List<Mount> mounts) {

  /** Env var naming the pod's root directory, under which each mount path is linked. */
  public static final String POD_ROOT_ENV = "DRUID_POD_ROOT";

  /** A container path and the host directory (or file) behind it. */
  public record Mount(String mountPath, Path hostPath) {
  }

  public MountPaths {
    mounts = mounts.stream()
        .sorted(Comparator.comparingInt((Mount m) -> m.mountPath().length()).reversed())
        .toList();
  }

  public String rewrite(String value) {
    String whole = rewritePath(value);
    if (!whole.equals(value)) {
      return whole;
    }
    int eq = value.indexOf('=');
    if (eq > 0) {
      String right = rewritePath(value.substring(eq + 1));
      return value.substring(0, eq + 1) + right;
    }
    return value;
  }

  public List<String> rewrite(List<String> values) {
    return values.stream().map(this::rewrite).toList();
  }

  private String rewritePath(String value) {
    for (Mount mount : mounts) {
      String path = trimSlash(mount.mountPath());
      if (value.equals(path) || value.equals(path + "/")) {
        return mount.hostPath().toString();
      }
      if (value.startsWith(path + "/")) {
        return mount.hostPath() + value.substring(path.length());
      }
    }
    return value;
  }

  private static String trimSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
