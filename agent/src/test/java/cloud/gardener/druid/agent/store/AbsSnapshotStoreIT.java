package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.testing.EmulatorStores;
import cloud.gardener.druid.testenv.emulators.AzuriteServer;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import com.azure.storage.common.StorageSharedKeyCredential;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our ABS store with Azure's client against Azurite on loopback. */
class AbsSnapshotStoreIT extends SnapshotStoreContract {

  @TempDir
  static Path work;
  private static AzuriteServer abs;
  private static int bucketCounter;
  private String bucket;

  @BeforeAll
  static void startAzurite() throws Exception {
    abs = new AzuriteServer(work);
  }

  @AfterAll
  static void stopAzurite() {
    abs.close();
  }

  @Override
  StoreConfig freshStore() throws Exception {
    bucket = "backups-" + (++bucketCounter);
    EmulatorStores.createContainer(abs, bucket);
    return EmulatorStores.abs(abs, bucket, "shoot--dev--etcd");
  }

  /** Nothing listens on port 1. */
  @Override
  StoreConfig unreachableStore() {
    return new StoreConfig(StoreConfig.Provider.ABS, bucket, "p",
        Optional.of(URI.create("http://127.0.0.1:1/devstoreaccount1")),
        Optional.of(abs.secretDir()));
  }

  @Test
  void aSasTokenInTheSecretGrantsAccessInsteadOfTheKey() throws Exception {
    String sas = new BlobContainerClientBuilder()
        .endpoint(abs.endpoint() + "/" + bucket)
        .credential(new StorageSharedKeyCredential(AzuriteServer.ACCOUNT, AzuriteServer.KEY))
        .buildClient()
        .generateSas(new BlobServiceSasSignatureValues(OffsetDateTime.now().plusHours(1),
            BlobContainerSasPermission.parse("racwdl")));
    Path secret = Files.createDirectories(work.resolve("sas-secret-" + bucket));
    Files.writeString(secret.resolve("storageAccount"), AzuriteServer.ACCOUNT);
    Files.writeString(secret.resolve("storageSASToken"), sas);

    try (SnapshotStore withSas = SnapshotStores.open(new StoreConfig(StoreConfig.Provider.ABS,
        bucket, "shoot--dev--etcd", Optional.of(abs.endpoint()), Optional.of(secret)))) {
      withSas.put(FULL, out -> out.write("full".getBytes()));
      assertThat(withSas.list()).containsExactly(FULL);
    }
    assertThat(store().list()).containsExactly(FULL);
  }

  @Test
  void aStoreThatRefusesTheKeyIsNamedAndTheStatusGiven() throws Exception {
    Path secret = Files.createDirectories(work.resolve("wrong-secret-" + bucket));
    Files.writeString(secret.resolve("storageAccount"), AzuriteServer.ACCOUNT);
    Files.writeString(secret.resolve("storageKey"),
        Base64.getEncoder().encodeToString("not the key".getBytes()));

    try (SnapshotStore refusing = SnapshotStores.open(new StoreConfig(StoreConfig.Provider.ABS,
        bucket, "shoot--dev--etcd", Optional.of(abs.endpoint()), Optional.of(secret)))) {
      assertThatThrownBy(refusing::list).isInstanceOf(StoreException.class)
          .hasMessageContaining(refusing.location()).hasMessageContaining("403");
    }
  }
}
