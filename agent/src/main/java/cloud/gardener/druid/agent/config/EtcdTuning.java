package cloud.gardener.druid.agent.config;

import java.nio.file.Path;
import java.time.Duration;
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
    Optional<String> bboltFreelistType,
    Duration corruptCheckPeriod) {

  /** How often the leader's etcd hashes every member's key space (etcd's periodic check). */
  public static final Duration CORRUPT_CHECK_PERIOD = Duration.ofHours(1);

  /** With the hourly periodic corruption check. */
  public EtcdTuning(Path binDir, long quotaBackendBytes, long snapshotCount,
      int heartbeatIntervalMillis, int electionTimeoutMillis, Optional<String> autoCompactionMode,
      Optional<String> autoCompactionRetention, Optional<String> metrics,
      Optional<String> bboltFreelistType) {
    this(binDir, quotaBackendBytes, snapshotCount, heartbeatIntervalMillis,
        electionTimeoutMillis, autoCompactionMode, autoCompactionRetention, metrics,
        bboltFreelistType, CORRUPT_CHECK_PERIOD);
  }

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
