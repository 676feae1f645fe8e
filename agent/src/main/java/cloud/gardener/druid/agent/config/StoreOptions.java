package cloud.gardener.druid.agent.config;

import cloud.gardener.druid.agent.store.StoreConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --store-*} options naming a backup store: a picocli mixin of {@code druid agent}
 * (its backups, all optional), {@code druid agent compact} (the store compacted) and
 * {@code druid agent copy} (the target). The last two require provider, container and prefix
 * ({@link #required}).
 */
public final class StoreOptions {

  @Option(names = "--store-provider", paramLabel = "Local|S3|GCS|ABS",
      description = "Backup store provider: Local, S3, GCS or ABS. druid agent: none, no"
          + " backups, by default; compact and copy require it.")
  private StoreConfig.Provider provider;

  @Option(names = "--store-container", paramLabel = "BUCKET|CONTAINER|DIR",
      description = "Bucket (S3, GCS), blob container (ABS) or directory (Local).")
  private String container;

  @Option(names = "--store-prefix", paramLabel = "PREFIX",
      description = "Prefix of the backups in the container.")
  private String prefix;

  @Option(names = "--store-endpoint-override", paramLabel = "URL", description = "Endpoint of"
      + " an S3-compatible store or an emulator. Default: the provider's, or the secret's"
      + " endpoint key.")
  private URI endpointOverride;

  @Option(names = "--store-secret-dir", paramLabel = "DIR", description = "The store secret's"
      + " keys as files, as upstream's secret carries them (docs/backup-stores.md).")
  private Path secretDir;

  /**
   * The store, validated; empty without {@code --store-provider}. Without
   * {@code --store-container} a Local store is {@code localDir}; other providers need it.
   */
  public Optional<StoreConfig> store(String localDir, String defaultPrefix) {
    if (provider == null) {
      return Optional.empty();
    }
    String defaultContainer = provider == StoreConfig.Provider.Local ? localDir : null;
    StoreConfig store = new StoreConfig(provider, container != null ? container
        : defaultContainer, prefix != null ? prefix : defaultPrefix,
        Optional.ofNullable(endpointOverride), Optional.ofNullable(secretDir));
    store.validate("");
    return Optional.of(store);
  }

  /** The store, validated, for a command that needs provider, container and prefix. */
  public StoreConfig required() {
    List<String> missing = new ArrayList<>();
    if (provider == null) {
      missing.add("--store-provider");
    }
    if (container == null) {
      missing.add("--store-container");
    }
    if (prefix == null) {
      missing.add("--store-prefix");
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("missing required options: "
          + String.join(", ", missing));
    }
    return store(container, prefix).orElseThrow();
  }
}
