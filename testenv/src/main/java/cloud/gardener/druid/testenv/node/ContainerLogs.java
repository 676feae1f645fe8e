package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The container logs of a node, as the kubelet finds them: by namespace, pod name and
 * container, the pod of that name that ran here last. Files live in
 * {@code <podLogs>/<ns>_<pod>_<uid>/<container>/} (the layout of {@code /var/log/pods}) and
 * are removed with the pod; not below {@code logs/}, whose flat files tests read while pods
 * come and go. Each line also goes to {@code <logs>/<ns>_<pod>_<container>.log}.
 */
final class ContainerLogs {

  /** The kubelet's defaults, containerLogMaxSize 10Mi and containerLogMaxFiles 5. */
  static final long DEFAULT_MAX_BYTES = 10L << 20;
  static final int DEFAULT_MAX_FILES = 5;

  private final Path logsDir;
  private final Path podLogsDir;
  private final long maxBytes;
  private final int maxFiles;
  private final Map<String, ContainerLog> byName = new ConcurrentHashMap<>();

  ContainerLogs(Path logsDir, Path podLogsDir, long maxBytes, int maxFiles) {
    this.logsDir = logsDir;
    this.podLogsDir = podLogsDir;
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  /** The log of {@code container} of {@code pod}, created on first use. */
  ContainerLog open(Pod pod, String container) {
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    String uid = pod.getMetadata().getUid();
    return byName.compute(key(ns, name, container), (k, existing) ->
        existing != null && existing.uid().equals(uid) ? existing
            : new ContainerLog(uid, podDir(ns, name, uid).resolve(container),
                logsDir.resolve(ns + "_" + name + "_" + container + ".log"), maxBytes,
                maxFiles));
  }

  Optional<ContainerLog> find(String namespace, String pod, String container) {
    return Optional.ofNullable(byName.get(key(namespace, pod, container)));
  }

  /** Forgets and deletes the logs of a deleted pod (the combined files stay). */
  void remove(Pod pod) {
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    String uid = pod.getMetadata().getUid();
    byName.values().removeIf(log -> log.uid().equals(uid));
    deleteTree(podDir(ns, name, uid));
  }

  private Path podDir(String ns, String name, String uid) {
    return podLogsDir.resolve(ns + "_" + name + "_" + uid);
  }

  private static String key(String namespace, String pod, String container) {
    return namespace + "/" + pod + "/" + container;
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
