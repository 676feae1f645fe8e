package cloud.gardener.druid.operator.model;

import java.time.Duration;

/**
 * Operator-wide settings the model needs.
 *
 * @param defaultImage image of member pods when the Etcd names none (it runs {@code druid agent})
 * @param localStoreRoot host directory under which {@code Local} backup stores live
 * @param compaction whether and when snapshot compaction Jobs run
 * @param localStoreLayout whether the namespace is part of a {@code Local} store's directory
 * @param corruptCheckPeriod how often the members' etcd runs its periodic corruption check
 *     (the agent's {@code --corrupt-check-period}; only passed when not the default hour)
 */
public record OperatorSettings(String defaultImage, String localStoreRoot,
    CompactionSettings compaction, LocalStoreLayout localStoreLayout,
    Duration corruptCheckPeriod) {

  /** etcd's periodic corruption check in the members: hourly unless the operator says. */
  public static final Duration CORRUPT_CHECK_PERIOD = Duration.ofHours(1);

  public OperatorSettings {
    if (localStoreLayout == null) {
      throw new IllegalArgumentException("localStoreLayout: required");
    }
    if (corruptCheckPeriod == null || corruptCheckPeriod.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("--etcd-corrupt-check-period must be at least 1s, not "
          + corruptCheckPeriod);
    }
  }

  /** With the hourly corruption check. */
  public OperatorSettings(String defaultImage, String localStoreRoot,
      CompactionSettings compaction, LocalStoreLayout localStoreLayout) {
    this(defaultImage, localStoreRoot, compaction, localStoreLayout, CORRUPT_CHECK_PERIOD);
  }

  /** Per-namespace {@code Local} stores. */
  public OperatorSettings(String defaultImage, String localStoreRoot,
      CompactionSettings compaction) {
    this(defaultImage, localStoreRoot, compaction, LocalStoreLayout.PER_NAMESPACE);
  }

  /** Without snapshot compaction (upstream's default), per-namespace {@code Local} stores. */
  public OperatorSettings(String defaultImage, String localStoreRoot) {
    this(defaultImage, localStoreRoot, CompactionSettings.DISABLED);
  }

  /** The repository images/build.sh names its image after (operator and members in one). */
  public static final String IMAGE_REPOSITORY =
      "europe-docker.pkg.dev/gardener-project/public/gardener/etcd-druid-jvm";
  /** The image when no build version is known (tests map any tag of it to the build's jar). */
  public static final String DEFAULT_IMAGE = IMAGE_REPOSITORY + ":latest";
  public static final String DEFAULT_LOCAL_STORE_ROOT = "/etc/gardener/local-backupbuckets";

  public static OperatorSettings defaults() {
    return new OperatorSettings(DEFAULT_IMAGE, DEFAULT_LOCAL_STORE_ROOT);
  }
}
