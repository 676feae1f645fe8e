package cloud.gardener.druid.agent.init;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A file in the data directory naming the Etcd (namespace/name) the data belongs to, so that
 * a volume of another cluster is never started as this one.
 */
public record GuardFile(String namespace, String etcd) {

  public static final String FILE_NAME = "druid-guard.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  public static Optional<GuardFile> read(Path dataDir) throws IOException {
    Path file = dataDir.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    return Optional.of(JSON.readValue(file.toFile(), GuardFile.class));
  }

  public void writeTo(Path dataDir) throws IOException {
    Files.createDirectories(dataDir);
    Path temp = dataDir.resolve(FILE_NAME + ".tmp");
    Files.write(temp, JSON.writeValueAsBytes(this));
    Files.move(temp, dataDir.resolve(FILE_NAME),
        java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  public String describe() {
    return namespace + "/" + etcd;
  }
}
