package cloud.gardener.druid.agent.store;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import cloud.gardener.druid.agent.store.S3Settings.SseCustomerKey;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Snapshots in an S3-compatible bucket under {@code <prefix>/v2/}. Content is streamed as a
 * multipart upload of {@code partSize} parts, {@link #PARALLEL_PARTS} at a time, that becomes
 * an object only when completed (see {@link S3Parts}), so listings never show a partial
 * snapshot. With a customer-provided key (SSE-C) every object is written and read with it.
 */
public final class S3SnapshotStore implements SnapshotStore {

  private final S3Client s3;
  private final String bucket;
  private final String keyPrefix;
  private final int partSize;
  private final Optional<SseCustomerKey> sse;

  /** Parts in flight; with the one being filled, {@code (PARALLEL_PARTS + 1) × partSize}. */
  static final int PARALLEL_PARTS = 3;

  public S3SnapshotStore(S3Client s3, String bucket, String prefix, int partSize) {
    this(s3, bucket, prefix, partSize, Optional.empty());
  }

  S3SnapshotStore(S3Client s3, String bucket, String prefix, int partSize,
      Optional<SseCustomerKey> sse) {
    this.s3 = s3;
    this.bucket = bucket;
    this.keyPrefix = keyPrefix(prefix);
    this.partSize = partSize;
    this.sse = sse;
  }

  /** {@code <prefix>/v2/}: where every object store keeps the snapshots of a prefix. */
  static String keyPrefix(String prefix) {
    String stripped = prefix.replaceAll("^/+|/+$", "");
    return (stripped.isEmpty() ? "" : stripped + "/") + "v2/";
  }

  @Override
  public List<Snapshot> list() throws IOException {
    List<Snapshot> snapshots = new ArrayList<>();
    try {
      ListObjectsV2Request request =
          ListObjectsV2Request.builder().bucket(bucket).prefix(keyPrefix).build();
      for (S3Object object : s3.listObjectsV2Paginator(request).contents()) {
        String name = object.key().substring(keyPrefix.length());
        Snapshot.parse(name).ifPresent(snapshots::add);
      }
    } catch (SdkException e) {
      throw unreachable("list", e);
    }
    snapshots.sort(Snapshot.ORDER);
    return snapshots;
  }

  @Override
  public void put(Snapshot snapshot, ContentWriter content) throws IOException {
    ParallelPartUpload out = new ParallelPartUpload(
        new S3Parts(s3, bucket, keyPrefix + snapshot.fileName(), sse), partSize,
        PARALLEL_PARTS, "s3-upload");
    try {
      content.writeTo(new NonClosingOutputStream(out));
      out.close();
    } catch (IOException | RuntimeException | Error e) {
      abortQuietly(out, e);
      if (e instanceof SdkException sdk) {
        throw unreachable("upload " + snapshot, sdk);
      }
      throw e;
    }
  }

  private static void abortQuietly(ParallelPartUpload out, Throwable cause) {
    try {
      out.abort();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private GetObjectRequest get(String key) {
    GetObjectRequest.Builder get = GetObjectRequest.builder().bucket(bucket).key(key);
    sse.ifPresent(k -> get.sseCustomerAlgorithm(k.algorithm())
        .sseCustomerKey(k.keyBase64()).sseCustomerKeyMD5(k.keyMd5Base64()));
    return get.build();
  }

  @Override
  public InputStream open(Snapshot snapshot) throws IOException {
    try {
      return s3.getObject(get(keyPrefix + snapshot.fileName()));
    } catch (NoSuchKeyException e) {
      throw new StoreException("snapshot " + snapshot + " is missing in " + location(), e);
    } catch (SdkException e) {
      throw unreachable("download " + snapshot, e);
    }
  }

  @Override
  public java.util.OptionalLong size(Snapshot snapshot) throws IOException {
    try {
      return java.util.OptionalLong.of(s3.headObject(b -> b.bucket(bucket)
          .key(keyPrefix + snapshot.fileName())).contentLength());
    } catch (SdkException e) {
      throw unreachable("read the size of " + snapshot, e);
    }
  }

  @Override
  public void delete(Snapshot snapshot) throws IOException {
    try {
      s3.deleteObject(b -> b.bucket(bucket).key(keyPrefix + snapshot.fileName()));
    } catch (SdkException e) {
      throw unreachable("delete " + snapshot, e);
    }
  }

  @Override
  public int deleteAbandonedUploads(Instant cutoff) throws IOException {
    int aborted = 0;
    try {
      for (MultipartUpload upload : s3.listMultipartUploads(
          b -> b.bucket(bucket).prefix(keyPrefix)).uploads()) {
        if (upload.initiated() != null && upload.initiated().isBefore(cutoff)) {
          s3.abortMultipartUpload(b -> b.bucket(bucket).key(upload.key())
              .uploadId(upload.uploadId()));
          aborted++;
        }
      }
    } catch (SdkException e) {
      throw unreachable("list abandoned uploads", e);
    }
    return aborted;
  }

  @Override
  public Optional<StoreIdentity> readIdentity() throws IOException {
    try {
      return Optional.of(StoreIdentity.parse(s3.getObjectAsBytes(
          get(keyPrefix + StoreIdentity.OBJECT_NAME)).asByteArray()));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw unreachable("read " + StoreIdentity.OBJECT_NAME, e);
    }
  }

  @Override
  public void writeIdentity(StoreIdentity identity) throws IOException {
    try {
      byte[] json = identity.toJson();
      new S3Parts(s3, bucket, keyPrefix + StoreIdentity.OBJECT_NAME, sse)
          .single(json, json.length);
    } catch (SdkException e) {
      throw unreachable("write " + StoreIdentity.OBJECT_NAME, e);
    }
  }

  @Override
  public Optional<byte[]> readMarker(String name) throws IOException {
    try {
      return Optional.of(s3.getObjectAsBytes(get(keyPrefix + name)).asByteArray());
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw unreachable("read " + name, e);
    }
  }

  @Override
  public void writeMarker(String name, byte[] content) throws IOException {
    try {
      new S3Parts(s3, bucket, keyPrefix + name, sse).single(content, content.length);
    } catch (SdkException e) {
      throw unreachable("write " + name, e);
    }
  }

  @Override
  public String location() {
    return "s3://" + bucket + "/" + keyPrefix;
  }

  private StoreException unreachable(String what, SdkException e) {
    return new StoreException(
        "backup store " + location() + ": cannot " + what + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    s3.close();
  }
}
