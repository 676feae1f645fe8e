package cloud.gardener.druid.testenv.node;

import java.util.List;
import java.util.Map;

/**
 * Maps a container image to a local command line: the node simulator's "container runtime".
 * The command and args passed in are the container's, after mount-path rewriting (see
 * {@link MountPaths}).
 */
public interface ImageRuntime {

  /** Whether containers of {@code image} run through this runtime. */
  boolean handles(String image);

  /** The argv of the container's main process. */
  List<String> commandLine(List<String> command, List<String> args);

  /** Environment the image itself defines (its ENV lines); the container's env overrides it. */
  default Map<String, String> imageEnv() {
    return Map.of();
  }

  /** The argv of an exec probe's command run "inside" the container. */
  default List<String> execCommandLine(List<String> command) {
    return command;
  }

  /** The image repository without registry-independent tag or digest: {@code a/b/etcd:v1} → {@code a/b/etcd}. */
  static String repository(String image) {
    String withoutDigest = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
    int colon = withoutDigest.lastIndexOf(':');
    return colon > withoutDigest.lastIndexOf('/') ? withoutDigest.substring(0, colon) : withoutDigest;
  }

  static String basename(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
