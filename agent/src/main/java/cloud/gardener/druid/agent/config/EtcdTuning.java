package cloud.gardener.druid.agent.config;

import java.nio.file.Path;
import java.util.Optional;

/** How etcd itself runs: where its binaries are and the {@code spec.etcd} settings. */
public record EtcdTuning(
    Path binDir,
    long quotaBackendBytes,
    long snapshotCount,
    int heartbeatIntervalMillis,
    int electionTimeoutMillis,
    Optional<String> autoCompactionMode,
    Optional<String> autoCompactionRetention,
    Optional<String> metrics,
    Optional<String> bboltFreelistType) {

  public Path etcd() {
    return binDir.resolve("etcd");
  }

  public Path etcdutl() {
    return binDir.resolve("etcdutl");
  }
}
