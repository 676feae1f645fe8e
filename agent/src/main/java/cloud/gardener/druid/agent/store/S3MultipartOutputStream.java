package cloud.gardener.druid.agent.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads what is written as parts of one multipart upload, holding at most one part in
 * memory. {@link #close()} completes the upload (the object appears atomically); content of
 * a single part is sent as one plain PUT. {@link #abort()} discards the upload; an upload
 * of a killed process stays invisible (S3 lists only completed objects) until the bucket's
 * lifecycle rule or the store's garbage collection removes it.
 */
final class S3MultipartOutputStream extends OutputStream {

  private final S3Client s3;
  private final String bucket;
  private final String key;
  private final byte[] part;
  private final List<CompletedPart> completed = new ArrayList<>();
  private int filled;
  private String uploadId;
  private boolean done;

  S3MultipartOutputStream(S3Client s3, String bucket, String key, int partSize) {
    this.s3 = s3;
    this.bucket = bucket;
    this.key = key;
    this.part = new byte[partSize];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    ensureOpen();
    while (len > 0) {
      int n = Math.min(len, part.length - filled);
      System.arraycopy(b, off, part, filled, n);
      filled += n;
      off += n;
      len -= n;
      if (filled == part.length) {
        uploadPart();
      }
    }
  }

  private void ensureOpen() throws IOException {
    if (done) {
      throw new IOException("upload of " + key + " is already finished");
    }
  }

  private void uploadPart() {
    if (uploadId == null) {
      uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
    }
    int number = completed.size() + 1;
    String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId)
            .partNumber(number).contentLength((long) filled),
        RequestBody.fromInputStream(new ByteArrayInputStream(part, 0, filled), filled))
        .eTag();
    completed.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
    filled = 0;
  }

  /** Discards everything written; nothing becomes visible. */
  void abort() {
    if (done) {
      return;
    }
    done = true;
    if (uploadId != null) {
      s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
    }
  }

  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    if (uploadId == null) {
      s3.putObject(b -> b.bucket(bucket).key(key).contentLength((long) filled),
          RequestBody.fromInputStream(new ByteArrayInputStream(part, 0, filled), filled));
    } else {
      if (filled > 0) {
        uploadPart();
      }
      s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
          .multipartUpload(m -> m.parts(completed)));
    }
    done = true;
  }
}
