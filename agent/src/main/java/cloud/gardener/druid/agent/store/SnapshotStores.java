package cloud.gardener.druid.agent.store;

import cloud.gardener.druid.agent.config.StoreConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Opens the store a {@link StoreConfig} names. */
public final class SnapshotStores {

  /** 8 MiB: above S3's 5 MiB minimum part size, small enough to keep the heap flat. */
  public static final int PART_SIZE = 8 * 1024 * 1024;

  private SnapshotStores() {
  }

  public static SnapshotStore open(StoreConfig config) throws IOException {
    return switch (config.provider()) {
      case Local -> new LocalSnapshotStore(Paths.get(config.container()), config.prefix());
      case S3 -> new S3SnapshotStore(s3Client(config), config.container(), config.prefix(),
          PART_SIZE);
      case GCS -> GcsSnapshotStore.open(config);
      case ABS -> AbsSnapshotStore.open(config);
    };
  }

  static S3Client s3Client(StoreConfig config) throws IOException {
    Optional<Path> secret = config.secretDir();
    S3ClientBuilder builder = S3Client.builder()
        .region(Region.of(secretValue(secret, "region").orElse("us-east-1")))
        .credentialsProvider(credentials(secret))
        // S3-compatible servers often lack the SDK's newer default checksums
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    Optional<URI> endpoint = config.endpointOverride()
        .or(() -> uncheckedSecret(secret, "endpoint").map(URI::create));
    endpoint.ifPresent(uri -> builder.endpointOverride(uri).forcePathStyle(true));
    return builder.build();
  }

  private static AwsCredentialsProvider credentials(Optional<Path> secret) throws IOException {
    Optional<String> id = secretValue(secret, "accessKeyID");
    Optional<String> key = secretValue(secret, "secretAccessKey");
    if (id.isPresent() && key.isPresent()) {
      return StaticCredentialsProvider.create(AwsBasicCredentials.create(id.get(), key.get()));
    }
    return DefaultCredentialsProvider.builder().build();
  }

  private static Optional<String> uncheckedSecret(Optional<Path> dir, String name) {
    try {
      return secretValue(dir, name);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<String> secretValue(Optional<Path> dir, String name)
      throws IOException {
    if (dir.isEmpty() || !Files.isRegularFile(dir.get().resolve(name))) {
      return Optional.empty();
    }
    return Optional.of(
        Files.readString(dir.get().resolve(name), StandardCharsets.UTF_8).trim());
  }
}
