package cloud.gardener.druid.agent.store;

import cloud.gardener.druid.api.types.StorePrefix;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
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

  /**
   * Refuses a prefix or container that could reach outside the store (the admission rules,
   * checked again here because the agent's options can be set by hand). Errors name the
   * options {@code --<optionPrefix>store-prefix} and {@code --<optionPrefix>store-container}.
   */
  public void validate(String optionPrefix) {
    String prefixOption = "--" + optionPrefix + "store-prefix";
    String containerOption = "--" + optionPrefix + "store-container";
    StorePrefix.problem(prefix).ifPresent(problem -> {
      throw new IllegalArgumentException(prefixOption + " '" + printable(prefix) + "' "
          + problem);
    });
    if (container == null || container.isBlank()) {
      throw new IllegalArgumentException(containerOption + " must name the "
          + (provider == Provider.Local ? "store directory" : "bucket or container")
          + " (an empty one would be shared by every Etcd)");
    }
    if (provider == Provider.Local) {
      if (container.contains("\\") || Arrays.asList(container.split("/")).contains("..")) {
        throw new IllegalArgumentException(containerOption + " '" + printable(container)
            + "' must be a directory without '..' segments or backslashes");
      }
    } else if (container.contains("/") || container.contains("\\") || container.equals(".")
        || container.equals("..")) {
      throw new IllegalArgumentException(containerOption + " '" + printable(container)
          + "' must be a bucket or container name, not a path");
    }
  }

  private static String printable(String value) {
    return value == null ? "" : value.replaceAll("\\p{Cntrl}", "?");
  }
}
