package cloud.gardener.druid.agent.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.gax.paging.Page;
import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.BaseServiceException;
import com.google.cloud.NoCredentials;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.StorageOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Snapshots in a Google Cloud Storage bucket under {@code <prefix>/v2/}. Content is streamed
 * as a resumable upload in {@link #CHUNK_SIZE} chunks; the object exists only once the last
 * chunk is committed, so listings never show a partial snapshot. A failed or killed upload is
 * never finalised: its session holds no object and expires on the server (there is nothing
 * for {@link #deleteAbandonedUploads} to remove).
 */
public final class GcsSnapshotStore implements SnapshotStore {

  /** A multiple of 256 KiB, as resumable uploads require; one chunk is held in memory. */
  static final int CHUNK_SIZE = 8 * 1024 * 1024;
  /** The service account key in the store secret, as upstream's secret carries it. */
  static final String SERVICE_ACCOUNT_KEY = "serviceaccount.json";

  private final Storage storage;
  private final String bucket;
  private final String keyPrefix;

  GcsSnapshotStore(Storage storage, String bucket, String prefix) {
    this.storage = storage;
    this.bucket = bucket;
    this.keyPrefix = S3SnapshotStore.keyPrefix(prefix);
  }

  static GcsSnapshotStore open(StoreConfig config) throws IOException {
    return new GcsSnapshotStore(client(config), config.container(), config.prefix());
  }

  /**
   * The client: credentials from the secret's service account key (else the pod's
   * application default credentials); an {@code http://} endpoint is an emulator and gets
   * none, as upstream. Upstream's endpoint form {@code http://host:port/storage/v1/} is
   * accepted.
   */
  static Storage client(StoreConfig config) throws IOException {
    StoreSecret secret = new StoreSecret(config.secretDir());
    Optional<Path> key = secret.file(SERVICE_ACCOUNT_KEY);
    Optional<URI> endpoint = config.endpointOverride()
        .or(() -> uncheckedValue(secret, "storageAPIEndpoint").map(URI::create));
    StorageOptions.Builder builder = StorageOptions.http()
        .setRetrySettings(RetrySettings.newBuilder()
            .setMaxAttempts(4)
            .setInitialRetryDelayDuration(Duration.ofMillis(500))
            .setRetryDelayMultiplier(2)
            .setMaxRetryDelayDuration(Duration.ofSeconds(4))
            .setTotalTimeoutDuration(Duration.ofMinutes(2))
            .build());
    if (key.isPresent()) {
      projectId(key.get()).ifPresent(builder::setProjectId);
    }
    boolean emulator = endpoint.isPresent() && "http".equals(endpoint.get().getScheme());
    if (endpoint.isPresent()) {
      builder.setHost(endpoint.get().getScheme() + "://" + endpoint.get().getAuthority());
    }
    if (emulator) {
      builder.setCredentials(NoCredentials.getInstance());
    } else if (key.isPresent()) {
      try (InputStream in = Files.newInputStream(key.get())) {
        builder.setCredentials(GoogleCredentials.fromStream(in)
            .createScoped("https://www.googleapis.com/auth/devstorage.read_write"));
      } catch (IOException e) {
        throw new IOException("the store secret's key " + SERVICE_ACCOUNT_KEY
            + " is not a service account key: " + e.getMessage(), e);
      }
    }
    return builder.build().getService();
  }

  private static Optional<String> projectId(Path key) throws IOException {
    JsonNode json;
    try {
      json = new ObjectMapper().readTree(key.toFile());
    } catch (IOException e) {
      throw new IOException("the store secret's key " + SERVICE_ACCOUNT_KEY
          + " is not JSON", e);
    }
    JsonNode id = json.get("project_id");
    return id == null || id.asText().isEmpty() ? Optional.empty() : Optional.of(id.asText());
  }

  private static Optional<String> uncheckedValue(StoreSecret secret, String key) {
    try {
      return secret.value(key);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public List<Snapshot> list() throws IOException {
    List<Snapshot> snapshots = new ArrayList<>();
    try {
      Page<Blob> page = storage.list(bucket, BlobListOption.prefix(keyPrefix));
      for (Blob blob : page.iterateAll()) {
        Snapshot.parse(blob.getName().substring(keyPrefix.length()))
            .ifPresent(snapshots::add);
      }
    } catch (BaseServiceException e) {
      throw unreachable("list", e);
    }
    snapshots.sort(Snapshot.ORDER);
    return snapshots;
  }

  @Override
  public void put(Snapshot snapshot, ContentWriter content) throws IOException {
    BlobInfo blob = BlobInfo.newBuilder(BlobId.of(bucket, keyPrefix + snapshot.fileName()))
        .setContentType("application/octet-stream").build();
    WriteChannel channel;
    try {
      channel = storage.writer(blob);
    } catch (BaseServiceException e) {
      throw unreachable("upload " + snapshot, e);
    }
    channel.setChunkSize(CHUNK_SIZE);
    try {
      // closing the channel would finalise what was written: only after success
      content.writeTo(new NonClosingOutputStream(new ChannelOutput(channel)));
      channel.close();
    } catch (BaseServiceException e) {
      throw unreachable("upload " + snapshot, e);
    }
  }

  @Override
  public InputStream open(Snapshot snapshot) throws IOException {
    BlobId id = BlobId.of(bucket, keyPrefix + snapshot.fileName());
    try {
      Blob blob = storage.get(id);
      if (blob == null) {
        throw new StoreException("snapshot " + snapshot + " is missing in " + location(), null);
      }
      // the generation read is the one found, even if the name is written again meanwhile
      return new ClientReadErrors<>(Channels.newInputStream(storage.reader(
          BlobId.of(bucket, id.getName(), blob.getGeneration()))), BaseServiceException.class,
          e -> unreachable("download " + snapshot, e));
    } catch (BaseServiceException e) {
      throw unreachable("download " + snapshot, e);
    }
  }

  @Override
  public void delete(Snapshot snapshot) throws IOException {
    try {
      storage.delete(BlobId.of(bucket, keyPrefix + snapshot.fileName()));
    } catch (BaseServiceException e) {
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
      Blob blob = storage.get(BlobId.of(bucket, keyPrefix + StoreIdentity.OBJECT_NAME));
      return blob == null ? Optional.empty()
          : Optional.of(StoreIdentity.parse(blob.getContent()));
    } catch (BaseServiceException e) {
      throw unreachable("read " + StoreIdentity.OBJECT_NAME, e);
    }
  }

  @Override
  public void writeIdentity(StoreIdentity identity) throws IOException {
    try {
      storage.create(BlobInfo.newBuilder(BlobId.of(bucket, keyPrefix + StoreIdentity.OBJECT_NAME))
          .setContentType("application/json").build(), identity.toJson());
    } catch (BaseServiceException e) {
      throw unreachable("write " + StoreIdentity.OBJECT_NAME, e);
    }
  }

  @Override
  public Optional<byte[]> readMarker(String name) throws IOException {
    try {
      Blob blob = storage.get(BlobId.of(bucket, keyPrefix + name));
      return blob == null ? Optional.empty() : Optional.of(blob.getContent());
    } catch (BaseServiceException e) {
      throw unreachable("read " + name, e);
    }
  }

  @Override
  public void writeMarker(String name, byte[] content) throws IOException {
    try {
      storage.create(BlobInfo.newBuilder(BlobId.of(bucket, keyPrefix + name))
          .setContentType("application/json").build(), content);
    } catch (BaseServiceException e) {
      throw unreachable("write " + name, e);
    }
  }

  @Override
  public String location() {
    return "gs://" + bucket + "/" + keyPrefix;
  }

  private StoreException unreachable(String what, BaseServiceException e) {
    return new StoreException(
        "backup store " + location() + ": cannot " + what + ": " + e.getMessage(), e);
  }

  @Override
  public void close() throws IOException {
    try {
      storage.close();
    } catch (Exception e) {
      throw new IOException(e);
    }
  }

  /** Writes to the resumable upload; the channel sends a chunk each time one is full. */
  private static final class ChannelOutput extends OutputStream {
    private final WriteChannel channel;

    ChannelOutput(WriteChannel channel) {
      this.channel = channel;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    }
  }
}
