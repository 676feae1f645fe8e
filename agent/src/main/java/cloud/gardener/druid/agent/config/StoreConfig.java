package cloud.gardener.druid.agent.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where backups go: the {@code spec.backup.store} of the Etcd. {@code container} is the
 * bucket (S3, GCS), the blob container (ABS) or the root directory (Local); {@code secretDir}
 * holds the store secret's keys as files, as upstream's secret carries them
 * (docs/backup-stores.md lists them per provider).
 */
public record StoreConfig(
    Provider provider, String container, String prefix, Optional<URI> endpointOverride,
    Optional<Path> secretDir) {

  public enum Provider {
    Local, S3, GCS, ABS
  }
}
