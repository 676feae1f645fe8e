package cloud.gardener.druid.agent.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A store secret mounted as a directory, one file per key, as upstream's pods mount it. Values
 * are never logged; messages name the key only.
 */
record StoreSecret(Optional<Path> dir) {

  /** The key's file, when the secret has it. */
  Optional<Path> file(String key) {
    return dir.map(d -> d.resolve(key)).filter(Files::isRegularFile);
  }

  /** The key's value without surrounding white space, when the secret has it. */
  Optional<String> value(String key) throws IOException {
    Optional<Path> file = file(key);
    return file.isEmpty() ? Optional.empty()
        : Optional.of(Files.readString(file.get(), StandardCharsets.UTF_8).trim());
  }

  /** A {@code true}/{@code false} key; anything else is an error naming the key. */
  Optional<Boolean> flag(String key) throws IOException {
    Optional<String> value = value(key);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    return switch (value.get().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> Optional.of(true);
      case "false" -> Optional.of(false);
      default -> throw new IOException("the store secret's key " + key
          + " must be true or false");
    };
  }
}
