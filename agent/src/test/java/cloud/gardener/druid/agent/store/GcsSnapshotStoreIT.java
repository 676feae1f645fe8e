package cloud.gardener.druid.agent.store;

import cloud.gardener.druid.agent.testing.EmulatorStores;
import cloud.gardener.druid.testenv.emulators.FakeGcsServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Our GCS store with Google's client against fake-gcs-server on loopback. */
class GcsSnapshotStoreIT extends SnapshotStoreContract {

  @TempDir
  static Path work;
  private static FakeGcsServer gcs;
  private static int bucketCounter;
  private String bucket;

  @BeforeAll
  static void startGcs() throws Exception {
    gcs = new FakeGcsServer(work);
  }

  @AfterAll
  static void stopGcs() {
    gcs.close();
  }

  @Override
  StoreConfig freshStore() throws Exception {
    bucket = "backups-" + (++bucketCounter);
    gcs.createBucket(bucket);
    return EmulatorStores.gcs(gcs, bucket, "shoot--dev--etcd");
  }

  /** Nothing listens on port 1. */
  @Override
  StoreConfig unreachableStore() {
    return new StoreConfig(StoreConfig.Provider.GCS, bucket, "p",
        Optional.of(URI.create("http://127.0.0.1:1/storage/v1/")),
        Optional.of(gcs.secretDir()));
  }
}
