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

  /**
   * etcd's own defaults with an 8 GiB quota: for a temporary etcd on loopback (compaction,
   * restore checks), which no spec tunes.
   */
  public static EtcdTuning defaults(Path binDir) {
    return new EtcdTuning(binDir, 8L << 30, 75_000, 100, 1000, Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty());
  }

  public Path etcd() {
    return binDir.resolve("etcd");
  }

  public Path etcdutl() {
    return binDir.resolve("etcdutl");
  }
}
