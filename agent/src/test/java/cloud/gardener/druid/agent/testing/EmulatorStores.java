package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.testenv.emulators.AzuriteServer;
import cloud.gardener.druid.testenv.emulators.FakeGcsServer;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import java.util.Optional;

/** The agent's store configuration for the store emulators of testenv. */
public final class EmulatorStores {

  private EmulatorStores() {
  }

  public static StoreConfig gcs(FakeGcsServer gcs, String bucket, String prefix) {
    return new StoreConfig(StoreConfig.Provider.GCS, bucket, prefix,
        Optional.of(gcs.endpoint()), Optional.of(gcs.secretDir()));
  }

  public static StoreConfig abs(AzuriteServer abs, String container, String prefix) {
    return new StoreConfig(StoreConfig.Provider.ABS, container, prefix,
        Optional.of(abs.endpoint()), Optional.of(abs.secretDir()));
  }

  public static void createContainer(AzuriteServer abs, String container) {
    new BlobServiceClientBuilder().endpoint(abs.endpoint().toString())
        .credential(new StorageSharedKeyCredential(AzuriteServer.ACCOUNT, AzuriteServer.KEY))
        .buildClient().createBlobContainer(container);
  }
}
