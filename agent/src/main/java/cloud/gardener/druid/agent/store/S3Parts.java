package cloud.gardener.druid.agent.store;

import cloud.gardener.druid.agent.store.S3Settings.SseCustomerKey;
import java.io.ByteArrayInputStream;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * One object as an S3 multipart upload, which S3 lists only once completed; content of a single
 * part is one plain PUT. An upload of a killed process stays invisible until the bucket's
 * lifecycle rule or the store's garbage collection ({@code deleteAbandonedUploads}) aborts it.
 */
final class S3Parts implements ParallelPartUpload.Parts {

  /** S3 allows 10,000 parts: 78 GiB at 8 MiB each. */
  private static final int MAX_PARTS = 10_000;

  private final S3Client s3;
  private final String bucket;
  private final String key;
  private final Optional<SseCustomerKey> sse;
  private final AtomicReferenceArray<String> etags = new AtomicReferenceArray<>(MAX_PARTS + 1);
  private String uploadId;

  S3Parts(S3Client s3, String bucket, String key, Optional<SseCustomerKey> sse) {
    this.s3 = s3;
    this.bucket = bucket;
    this.key = key;
    this.sse = sse;
  }

  private synchronized String uploadId() {
    if (uploadId == null) {
      CreateMultipartUploadRequest.Builder create =
          CreateMultipartUploadRequest.builder().bucket(bucket).key(key);
      sse.ifPresent(k -> create.sseCustomerAlgorithm(k.algorithm())
          .sseCustomerKey(k.keyBase64()).sseCustomerKeyMD5(k.keyMd5Base64()));
      uploadId = s3.createMultipartUpload(create.build()).uploadId();
    }
    return uploadId;
  }

  @Override
  public void upload(int number, byte[] data, int length) {
    if (number > MAX_PARTS) {
      throw new IllegalStateException("snapshot " + key + " is larger than S3's "
          + MAX_PARTS + " parts");
    }
    UploadPartRequest.Builder part = UploadPartRequest.builder().bucket(bucket).key(key)
        .uploadId(uploadId()).partNumber(number).contentLength((long) length);
    sse.ifPresent(k -> part.sseCustomerAlgorithm(k.algorithm())
        .sseCustomerKey(k.keyBase64()).sseCustomerKeyMD5(k.keyMd5Base64()));
    etags.set(number, s3.uploadPart(part.build(), RequestBody.fromInputStream(
        new ByteArrayInputStream(data, 0, length), length)).eTag());
  }

  @Override
  public void complete(int count) {
    CompletedPart[] parts = new CompletedPart[count];
    for (int i = 1; i <= count; i++) {
      parts[i - 1] = CompletedPart.builder().partNumber(i).eTag(etags.get(i)).build();
    }
    s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId())
        .multipartUpload(m -> m.parts(parts)));
  }

  @Override
  public void single(byte[] data, int length) {
    PutObjectRequest.Builder put = PutObjectRequest.builder().bucket(bucket).key(key)
        .contentLength((long) length);
    sse.ifPresent(k -> put.sseCustomerAlgorithm(k.algorithm())
        .sseCustomerKey(k.keyBase64()).sseCustomerKeyMD5(k.keyMd5Base64()));
    s3.putObject(put.build(),
        RequestBody.fromInputStream(new ByteArrayInputStream(data, 0, length), length));
  }

  @Override
  public synchronized void abort() {
    if (uploadId != null) {
      s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
    }
  }
}
