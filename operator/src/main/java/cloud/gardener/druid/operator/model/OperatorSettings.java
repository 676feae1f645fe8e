package cloud.gardener.druid.operator.model;

/**
 * Operator-wide settings the model needs.
 *
 * @param defaultImage image of member pods when the Etcd names none (it runs {@code druid agent})
 * @param localStoreRoot host directory under which {@code Local} backup stores live
 * @param compaction whether and when snapshot compaction Jobs run
 * @param localStoreLayout whether the namespace is part of a {@code Local} store's directory
 */
public record OperatorSettings(String defaultImage, String localStoreRoot,
    CompactionSettings compaction, LocalStoreLayout localStoreLayout) {

  public OperatorSettings {
    if (localStoreLayout == null) {
      throw new IllegalArgumentException("localStoreLayout: required");
    }
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
