package cloud.gardener.druid.agent.store;

import java.io.IOException;
import java.nio.file.Paths;
import software.amazon.awssdk.services.s3.S3Client;

/** Opens the store a {@link StoreConfig} names. */
public final class SnapshotStores {

  /** 8 MiB: above S3's 5 MiB minimum part size, small enough to keep the heap flat. */
  public static final int PART_SIZE = 8 * 1024 * 1024;

  private SnapshotStores() {
  }

  /**
   * Opens the store after {@link StoreConfig#validate} (errors name the agent's own
   * {@code --store-*} options; callers with other options validate first).
   */
  public static SnapshotStore open(StoreConfig config) throws IOException {
    config.validate("");
    return switch (config.provider()) {
      case Local -> new LocalSnapshotStore(Paths.get(config.container()), config.prefix());
      case S3 -> {
        S3Settings settings = S3Settings.read(config.secretDir());
        yield new S3SnapshotStore(settings.client(config), config.container(), config.prefix(),
            PART_SIZE, settings.sse());
      }
      case GCS -> GcsSnapshotStore.open(config);
      case ABS -> AbsSnapshotStore.open(config);
    };
  }

  /** The S3 client of an S3 store, as the store opens it. */
  static S3Client s3Client(StoreConfig config) throws IOException {
    return S3Settings.read(config.secretDir()).client(config);
  }
}
