package cloud.gardener.druid.agent.store;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Snapshots in an Azure Blob Storage container under {@code <prefix>/v2/}. Content is staged as
 * blocks of {@link #BLOCK_SIZE}, {@link #PARALLEL_BLOCKS} at a time, and committed as one block
 * list at the end: until then the blob does not exist, so listings never show a partial
 * snapshot. Blocks of a failed or killed upload stay uncommitted (never listed) and the
 * service discards them (after a week); there is nothing for {@link #deleteAbandonedUploads}.
 */
public final class AbsSnapshotStore implements SnapshotStore {

  static final int BLOCK_SIZE = 8 * 1024 * 1024;
  /** Blocks in flight; with the one being filled, {@code (PARALLEL_BLOCKS + 1) × 8 MiB}. */
  static final int PARALLEL_BLOCKS = 3;

  private final BlobContainerClient container;
  private final String keyPrefix;
  private final String location;

  AbsSnapshotStore(BlobContainerClient container, String prefix) {
    this.container = container;
    this.keyPrefix = S3SnapshotStore.keyPrefix(prefix);
    this.location = container.getBlobContainerUrl() + "/" + keyPrefix;
  }

  /**
   * The container client, as upstream's secret carries the credentials: {@code storageAccount}
   * with {@code storageKey}, or (our addition) with a {@code storageSASToken}; the endpoint is
   * {@code --store-endpoint-override} (Azurite: {@code http://127.0.0.1:10000/<account>}), else
   * {@code https://<account>.<domain>} with the secret's optional {@code domain} (default
   * {@code blob.core.windows.net}).
   */
  static AbsSnapshotStore open(StoreConfig config) throws IOException {
    StoreSecret secret = new StoreSecret(config.secretDir());
    String account = secret.value("storageAccount").orElseThrow(() -> new IOException(
        "the ABS store secret has no key storageAccount"));
    Optional<String> key = secret.value("storageKey");
    Optional<String> sas = secret.value("storageSASToken");
    String endpoint = config.endpointOverride().map(URI::toString)
        .orElse("https://" + account + "." + secret.value("domain")
            .orElse("blob.core.windows.net"));
    BlobContainerClientBuilder builder = new BlobContainerClientBuilder()
        .endpoint(endpoint.replaceAll("/+$", "") + "/" + config.container())
        .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, 4,
            Duration.ofMinutes(2), Duration.ofMillis(500), Duration.ofSeconds(4), null));
    if (key.isPresent()) {
      builder.credential(new StorageSharedKeyCredential(account, key.get()));
    } else if (sas.isPresent()) {
      builder.sasToken(sas.get());
    } else {
      throw new IOException("the ABS store secret has neither storageKey nor storageSASToken");
    }
    return new AbsSnapshotStore(builder.buildClient(), config.prefix());
  }

  @Override
  public List<Snapshot> list() throws IOException {
    List<Snapshot> snapshots = new ArrayList<>();
    try {
      for (BlobItem item : container.listBlobs(new ListBlobsOptions().setPrefix(keyPrefix),
          null)) {
        Snapshot.parse(item.getName().substring(keyPrefix.length())).ifPresent(snapshots::add);
      }
    } catch (RuntimeException e) {
      throw unreachable("list", e);
    }
    snapshots.sort(Snapshot.ORDER);
    return snapshots;
  }

  @Override
  public void put(Snapshot snapshot, ContentWriter content) throws IOException {
    BlockBlobClient blob = container.getBlobClient(keyPrefix + snapshot.fileName())
        .getBlockBlobClient();
    ParallelPartUpload out = new ParallelPartUpload(new Blocks(blob), BLOCK_SIZE,
        PARALLEL_BLOCKS, "abs-upload");
    try {
      content.writeTo(new NonClosingOutputStream(out));
      out.close();
    } catch (IOException | RuntimeException | Error e) {
      out.abort();
      throw e;
    }
  }

  private static String blockId(int number) {
    return Base64.getEncoder().encodeToString(String.format("%010d", number)
        .getBytes(StandardCharsets.US_ASCII));
  }

  /** Stages blocks and commits them; the block IDs are the part numbers. */
  private final class Blocks implements ParallelPartUpload.Parts {
    private final BlockBlobClient blob;

    Blocks(BlockBlobClient blob) {
      this.blob = blob;
    }

    @Override
    public void upload(int number, byte[] data, int length) throws IOException {
      try {
        blob.stageBlock(blockId(number), BinaryData.fromBytes(
            length == data.length ? data : java.util.Arrays.copyOf(data, length)));
      } catch (RuntimeException e) {
        throw unreachable("upload block " + number + " of " + blob.getBlobName(), e);
      }
    }

    @Override
    public void complete(int count) throws IOException {
      List<String> ids = new ArrayList<>(count);
      for (int i = 1; i <= count; i++) {
        ids.add(blockId(i));
      }
      try {
        blob.commitBlockList(ids, true);
      } catch (RuntimeException e) {
        throw unreachable("commit " + blob.getBlobName(), e);
      }
    }

    @Override
    public void single(byte[] data, int length) throws IOException {
      try {
        blob.upload(BinaryData.fromBytes(java.util.Arrays.copyOf(data, length)), true);
      } catch (RuntimeException e) {
        throw unreachable("upload " + blob.getBlobName(), e);
      }
    }

    @Override
    public void abort() {
      // uncommitted blocks are never listed and expire on the service
    }
  }

  @Override
  public InputStream open(Snapshot snapshot) throws IOException {
    BlobClient blob = container.getBlobClient(keyPrefix + snapshot.fileName());
    try {
      return new ClientReadErrors<>(blob.openInputStream(), RuntimeException.class,
          e -> unreachable("download " + snapshot, e));
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        throw new StoreException("snapshot " + snapshot + " is missing in " + location(), e);
      }
      throw unreachable("download " + snapshot, e);
    } catch (RuntimeException e) {
      throw unreachable("download " + snapshot, e);
    }
  }

  @Override
  public void delete(Snapshot snapshot) throws IOException {
    try {
      container.getBlobClient(keyPrefix + snapshot.fileName()).deleteIfExists();
    } catch (RuntimeException e) {
      throw unreachable("delete " + snapshot, e);
    }
  }

  @Override
  public int deleteAbandonedUploads(Instant cutoff) {
    return 0;
  }

  @Override
  public Optional<StoreIdentity> readIdentity() throws IOException {
    try {
      return Optional.of(StoreIdentity.parse(container.getBlobClient(
          keyPrefix + StoreIdentity.OBJECT_NAME).downloadContent().toBytes()));
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return Optional.empty();
      }
      throw unreachable("read " + StoreIdentity.OBJECT_NAME, e);
    } catch (RuntimeException e) {
      throw unreachable("read " + StoreIdentity.OBJECT_NAME, e);
    }
  }

  @Override
  public void writeIdentity(StoreIdentity identity) throws IOException {
    try {
      container.getBlobClient(keyPrefix + StoreIdentity.OBJECT_NAME)
          .upload(BinaryData.fromBytes(identity.toJson()), true);
    } catch (RuntimeException e) {
      throw unreachable("write " + StoreIdentity.OBJECT_NAME, e);
    }
  }

  @Override
  public Optional<byte[]> readMarker(String name) throws IOException {
    try {
      return Optional.of(container.getBlobClient(keyPrefix + name).downloadContent().toBytes());
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return Optional.empty();
      }
      throw unreachable("read " + name, e);
    } catch (RuntimeException e) {
      throw unreachable("read " + name, e);
    }
  }

  @Override
  public void writeMarker(String name, byte[] content) throws IOException {
    try {
      container.getBlobClient(keyPrefix + name).upload(BinaryData.fromBytes(content), true);
    } catch (RuntimeException e) {
      throw unreachable("write " + name, e);
    }
  }

  @Override
  public String location() {
    return location;
  }

  private StoreException unreachable(String what, RuntimeException e) {
    String reason = e instanceof BlobStorageException b
        ? b.getStatusCode() + " " + b.getErrorCode() : String.valueOf(e.getMessage());
    return new StoreException("backup store " + location() + ": cannot " + what + ": " + reason,
        e);
  }
}
