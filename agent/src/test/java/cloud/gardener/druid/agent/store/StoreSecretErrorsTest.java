package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store secret that cannot work is refused when the store opens, naming the key only. */
class StoreSecretErrorsTest {

  @TempDir
  Path secret;

  private StoreConfig config(StoreConfig.Provider provider, String endpoint) {
    return new StoreConfig(provider, "backups", "p", Optional.of(URI.create(endpoint)),
        Optional.of(secret));
  }

  @Test
  void aGcsServiceAccountKeyThatIsNotOneIsNamed() throws Exception {
    Files.writeString(secret.resolve("serviceaccount.json"),
        "{\"type\":\"service_account\",\"private_key\":\"not-a-key-1234\"}");
    assertThatThrownBy(() -> SnapshotStores.open(config(StoreConfig.Provider.GCS,
        "https://127.0.0.1:1"))).hasMessageContaining("serviceaccount.json")
        .hasMessageNotContaining("not-a-key-1234");
  }

  @Test
  void anAbsSecretWithoutAccountOrCredentialIsNamed() throws Exception {
    assertThatThrownBy(() -> SnapshotStores.open(config(StoreConfig.Provider.ABS,
        "http://127.0.0.1:1/account"))).hasMessageContaining("storageAccount");
    Files.writeString(secret.resolve("storageAccount"), "account");
    assertThatThrownBy(() -> SnapshotStores.open(config(StoreConfig.Provider.ABS,
        "http://127.0.0.1:1/account")))
        .hasMessageContaining("neither storageKey nor storageSASToken");
  }

  @Test
  void anS3FlagThatIsNotABooleanIsNamed() throws Exception {
    Files.writeString(secret.resolve("accessKeyID"), "id");
    Files.writeString(secret.resolve("secretAccessKey"), "key");
    Files.writeString(secret.resolve("s3ForcePathStyle"), "yes please");
    assertThatThrownBy(() -> SnapshotStores.open(config(StoreConfig.Provider.S3,
        "http://127.0.0.1:1"))).hasMessageContaining("s3ForcePathStyle")
        .hasMessageNotContaining("yes please");
  }
}
