package cloud.gardener.druid.testenv.emulators;

import cloud.gardener.druid.testenv.controlplane.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Azurite's Blob service (the Azure Storage emulator, installed from npm by
 * {@code testenv/emulators/azurite/install.sh}) on a free 127.0.0.1 port, keeping blobs in
 * memory. Writes a store secret as upstream's carries it ({@code storageAccount},
 * {@code storageKey}) for Azurite's development account. Containers are created with the
 * Azure SDK by the tests that have it ({@link #ACCOUNT}, {@link #KEY}, {@link #endpoint()}).
 */
public final class AzuriteServer implements AutoCloseable {

  /** Azurite's built-in development account and its published key (not a secret). */
  public static final String ACCOUNT = "devstoreaccount1";
  public static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private final EmulatorProcess process;
  private final int port;
  private final Path secretDir;

  public AzuriteServer(Path workDir) throws IOException {
    Path launcher = EmulatorProcess.install("azurite/install.sh");
    port = FreePorts.next();
    process = EmulatorProcess.start(List.of(launcher.toString(), "--blobHost", "127.0.0.1",
        "--blobPort", String.valueOf(port), "--inMemoryPersistence", "--skipApiVersionCheck", "--disableTelemetry",
        "--silent"), EmulatorProcess.logFile("azurite"), port);
    secretDir = Files.createDirectories(workDir.resolve("abs-secret"));
    secret().forEach((key, value) -> {
      try {
        Files.writeString(secretDir.resolve(key), value);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** As upstream's flag takes it: {@code http://host:port/<account>}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port + "/" + ACCOUNT);
  }

  /** The keys of a store secret for this emulator, as upstream's ABS secret carries them. */
  public Map<String, String> secret() {
    return Map.of("storageAccount", ACCOUNT, "storageKey", KEY);
  }

  /** The {@link #secret()} as one file per key. */
  public Path secretDir() {
    return secretDir;
  }

  @Override
  public void close() {
    process.close();
  }
}
