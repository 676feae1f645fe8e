package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.store.Snapshot.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What every store must do; each store's test supplies a fresh, empty store. */
abstract class SnapshotStoreContract {

  abstract SnapshotStore store();

  static final Snapshot FULL =
      Snapshot.full(0, 100, Instant.ofEpochSecond(1700000000), Compression.GZIP, false);
  static final Snapshot DELTA =
      Snapshot.delta(101, 150, Instant.ofEpochSecond(1700000020), Compression.GZIP);

  @Test
  void storesListsReadsAndDeletesSnapshots() throws IOException {
    store().put(DELTA, out -> out.write("delta".getBytes()));
    store().put(FULL, out -> out.write("full".getBytes()));

    assertThat(store().list()).containsExactly(FULL, DELTA);
    try (InputStream in = store().open(FULL)) {
      assertThat(new String(in.readAllBytes())).isEqualTo("full");
    }
    store().delete(FULL);
    assertThat(store().list()).containsExactly(DELTA);
  }

  @Test
  void streamsContentLargerThanOnePart() throws Exception {
    long size = 23L * 1024 * 1024 + 17;
    byte[] written = digest(size, out -> writeRandom(out, size));
    store().put(FULL, out -> writeRandom(out, size));

    MessageDigest read = MessageDigest.getInstance("SHA-256");
    try (InputStream in = store().open(FULL)) {
      byte[] buf = new byte[65536];
      for (int n; (n = in.read(buf)) > 0; ) {
        read.update(buf, 0, n);
      }
    }
    assertThat(read.digest()).isEqualTo(written);
  }

  @Test
  void aFailedUploadLeavesNoVisibleObjectAndTheNextOneSucceeds() throws IOException {
    assertThatThrownBy(() -> store().put(FULL, out -> {
      writeRandom(out, 12L * 1024 * 1024);
      throw new IOException("etcd went away mid-stream");
    })).hasMessageContaining("etcd went away mid-stream");

    assertThat(store().list()).isEmpty();
    store().put(FULL, out -> out.write("full".getBytes()));
    assertThat(store().list()).containsExactly(FULL);
  }

  @Test
  void keepsTheIdentityMarkerNextToTheSnapshotsWithoutListingIt() throws IOException {
    assertThat(store().readIdentity()).isEmpty();
    store().put(FULL, out -> out.write("full".getBytes()));
    store().writeIdentity(new StoreIdentity("shoot", "etcd-main"));

    assertThat(store().readIdentity()).hasValue(new StoreIdentity("shoot", "etcd-main"));
    assertThat(store().list()).containsExactly(FULL);
    store().writeIdentity(new StoreIdentity("shoot", "etcd-events"));
    assertThat(store().readIdentity()).hasValue(new StoreIdentity("shoot", "etcd-events"));
  }

  @Test
  void openingAMissingSnapshotNamesIt() {
    assertThatThrownBy(() -> store().open(FULL).readAllBytes())
        .hasMessageContaining(FULL.fileName());
  }

  static void writeRandom(OutputStream out, long size) throws IOException {
    Random random = new Random(size);
    byte[] buf = new byte[1 << 20];
    for (long left = size; left > 0; ) {
      random.nextBytes(buf);
      int n = (int) Math.min(left, buf.length);
      out.write(buf, 0, n);
      left -= n;
    }
  }

  static byte[] digest(long size, SnapshotStore.ContentWriter writer) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    writer.writeTo(new java.security.DigestOutputStream(OutputStream.nullOutputStream(), md));
    return md.digest();
  }
}
