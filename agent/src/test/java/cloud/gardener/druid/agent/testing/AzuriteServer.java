package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.config.StoreConfig;
import cloud.gardener.druid.agent.util.FreePorts;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Azurite's Blob service (the Azure Storage emulator, installed from npm by
 * {@code testenv/emulators/azurite/install.sh}) on a free 127.0.0.1 port, keeping blobs in
 * memory. Writes a store secret as upstream's carries it ({@code storageAccount},
 * {@code storageKey}) for Azurite's development account.
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
    port = FreePorts.on("127.0.0.1");
    process = EmulatorProcess.start(List.of(launcher.toString(), "--blobHost", "127.0.0.1",
        "--blobPort", String.valueOf(port), "--inMemoryPersistence", "--skipApiVersionCheck",
        "--silent"), EmulatorProcess.logFile("azurite"), port);
    secretDir = Files.createDirectories(workDir.resolve("abs-secret"));
    Files.writeString(secretDir.resolve("storageAccount"), ACCOUNT);
    Files.writeString(secretDir.resolve("storageKey"), KEY);
  }

  /** As upstream's flag takes it: {@code http://host:port/<account>}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port + "/" + ACCOUNT);
  }

  public Path secretDir() {
    return secretDir;
  }

  public void createContainer(String container) {
    new BlobServiceClientBuilder().endpoint(endpoint().toString())
        .credential(new StorageSharedKeyCredential(ACCOUNT, KEY)).buildClient()
        .createBlobContainer(container);
  }

  public StoreConfig storeConfig(String container, String prefix) {
    return new StoreConfig(StoreConfig.Provider.ABS, container, prefix,
        Optional.of(endpoint()), Optional.of(secretDir));
  }

  @Override
  public void close() {
    process.close();
  }
}
