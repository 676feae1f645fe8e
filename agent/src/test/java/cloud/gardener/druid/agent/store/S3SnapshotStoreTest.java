package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.testing.S3ProxyServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our S3 store with the AWS SDK against a real S3 API server (s3proxy) on loopback. */
class S3SnapshotStoreTest extends SnapshotStoreContract {

  @TempDir
  static Path work;
  private static S3ProxyServer s3;
  private static int bucketCounter;
  private String bucket;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = new S3ProxyServer(work);
  }

  @AfterAll
  static void stopS3() throws Exception {
    s3.close();
  }

  @Override
  StoreConfig freshStore() {
    bucket = "backups-" + (++bucketCounter);
    s3.createBucket(bucket);
    return s3.storeConfig(bucket, "shoot--dev--etcd");
  }

  /** Nothing listens on port 1. */
  @Override
  StoreConfig unreachableStore() {
    return new StoreConfig(StoreConfig.Provider.S3, bucket, "p",
        Optional.of(URI.create("http://127.0.0.1:1")), Optional.of(s3.secretDir()));
  }

  @Test
  void aFailedUploadLeavesNoPendingMultipartUpload() throws Exception {
    assertThatThrownBy(() -> store().put(FULL, out -> {
      writeRandom(out, 9L * 1024 * 1024);
      throw new java.io.IOException("aborted");
    }));
    try (var client = SnapshotStores.s3Client(s3.storeConfig(bucket, "p"))) {
      assertThat(client.listMultipartUploads(b -> b.bucket(bucket)).uploads()).isEmpty();
    }
  }

  @Test
  void uploadsOfCrashedProcessesAreAbortedByGarbageCollection() throws Exception {
    try (var client = SnapshotStores.s3Client(s3.storeConfig(bucket, "p"))) {
      client.createMultipartUpload(
          b -> b.bucket(bucket).key("shoot--dev--etcd/v2/" + FULL.fileName()));
      assertThat(store().deleteAbandonedUploads(java.time.Instant.now().minusSeconds(3600)))
          .isZero();
      assertThat(store().deleteAbandonedUploads(java.time.Instant.now().plusSeconds(60)))
          .isEqualTo(1);
      assertThat(client.listMultipartUploads(b -> b.bucket(bucket)).uploads()).isEmpty();
    }
  }

  @Test
  void sizeIsTheStoredBytes() throws Exception {
    store().put(FULL, out -> out.write(new byte[1234]));
    assertThat(store().size(FULL)).hasValue(1234);
  }
}
