package cloud.gardener.druid.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.testing.InterruptedUploadMain;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every store must do, run against each of them (Local, S3 on s3proxy, GCS on
 * fake-gcs-server, ABS on Azurite): each subclass names a fresh, empty store and one that does
 * not answer or refuses. The store is opened through {@link SnapshotStores#open}, as the agent
 * opens it.
 */
abstract class SnapshotStoreContract {

  /** A fresh, empty store (a new bucket, container or directory per test). */
  abstract StoreConfig freshStore() throws Exception;

  /** A store at an address where nothing answers, or one that refuses our credentials. */
  abstract StoreConfig unreachableStore() throws Exception;

  static final Snapshot FULL =
      Snapshot.full(0, 100, Instant.ofEpochSecond(1700000000), Compression.GZIP, false);
  static final Snapshot DELTA =
      Snapshot.delta(101, 150, Instant.ofEpochSecond(1700000020), Compression.GZIP);

  StoreConfig config;
  private SnapshotStore store;

  @BeforeEach
  void openStore() throws Exception {
    config = freshStore();
    store = SnapshotStores.open(config);
  }

  @AfterEach
  void closeStore() throws IOException {
    store.close();
  }

  SnapshotStore store() {
    return store;
  }

  @Test
  void storesListsReadsAndDeletesSnapshots() throws IOException {
    store().put(DELTA, out -> out.write("delta".getBytes()));
    store().put(FULL, out -> out.write("full".getBytes()));

    assertThat(store().list()).containsExactly(FULL, DELTA);
    assertThat(read(FULL)).isEqualTo("full".getBytes());
    store().delete(FULL);
    assertThat(store().list()).containsExactly(DELTA);
  }

  @Test
  void listsSnapshotsInRestoreOrderWhateverOrderTheyWereWrittenIn() throws IOException {
    Instant t = Instant.ofEpochSecond(1700000000);
    List<Snapshot> expected = List.of(
        Snapshot.full(0, 10, t, Compression.NONE, false),
        Snapshot.delta(11, 20, t.plusSeconds(20), Compression.NONE),
        Snapshot.delta(21, 99, t.plusSeconds(40), Compression.NONE),
        // a full snapshot at a delta's end revision comes first
        Snapshot.full(0, 100, t.plusSeconds(3600), Compression.GZIP, false),
        Snapshot.delta(21, 100, t.plusSeconds(60), Compression.NONE),
        Snapshot.full(0, 120, t.plusSeconds(3640), Compression.GZIP, true),
        Snapshot.delta(101, 120, t.plusSeconds(3620), Compression.ZLIB));
    List<Snapshot> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new Random(7));
    for (Snapshot s : shuffled) {
      store().put(s, out -> out.write(s.fileName().getBytes()));
    }
    store().writeIdentity(new StoreIdentity("shoot", "etcd-main"));

    assertThat(store().list()).containsExactlyElementsOf(expected);
    for (Snapshot s : expected) {
      assertThat(read(s)).as(s.fileName()).isEqualTo(s.fileName().getBytes());
    }
  }

  @Test
  void streamsContentLargerThanSeveralParts() throws Exception {
    long size = 23L * 1024 * 1024 + 17;
    byte[] written = digest(out -> writeRandom(out, size));
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
  void aSnapshotIsInvisibleUntilItsLastByteIsWritten() throws Exception {
    CountDownLatch halfWritten = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    long size = 12L * 1024 * 1024;
    CompletableFuture<Void> upload = CompletableFuture.runAsync(() -> {
      try {
        store().put(FULL, out -> {
          writeRandom(out, size);
          out.flush();
          halfWritten.countDown();
          await(finish);
          out.write("the end".getBytes());
        });
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    assertThat(halfWritten.await(2, TimeUnit.MINUTES)).isTrue();

    assertThat(store().list()).as("listed during the upload").isEmpty();
    assertThatThrownBy(() -> read(FULL)).as("readable during the upload")
        .isInstanceOf(IOException.class);
    finish.countDown();
    upload.get(5, TimeUnit.MINUTES);
    assertThat(store().list()).containsExactly(FULL);
    byte[] expected = digest(out -> {
      writeRandom(out, size);
      out.write("the end".getBytes());
    });
    assertThat(MessageDigest.getInstance("SHA-256").digest(read(FULL))).isEqualTo(expected);
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
  void aKilledUploadLeavesNothingARestoreWouldTake() throws Exception {
    store().put(DELTA, out -> out.write("delta".getBytes()));
    StoreConfig killedPrefix = new StoreConfig(config.provider(), config.container(),
        "default--etcd-test", config.endpointOverride(), config.secretDir());

    InterruptedUploadMain.killMidUpload(killedPrefix);

    try (SnapshotStore killed = SnapshotStores.open(killedPrefix)) {
      assertThat(killed.list()).as("objects visible after the killed upload").isEmpty();
      killed.deleteAbandonedUploads(Instant.now().plusSeconds(60));
      assertThat(killed.list()).isEmpty();
      killed.put(FULL, out -> out.write("full".getBytes()));
      assertThat(killed.list()).containsExactly(FULL);
    }
    assertThat(store().list()).as("another prefix in the same bucket").containsExactly(DELTA);
  }

  @Test
  void garbageCollectionDeletesExactlyTheSnapshotsItNamesAndMayRepeatADeletion()
      throws IOException {
    Snapshot older = Snapshot.full(0, 50, Instant.ofEpochSecond(1699990000), Compression.GZIP,
        false);
    for (Snapshot s : List.of(older, FULL, DELTA)) {
      store().put(s, out -> out.write(s.fileName().getBytes()));
    }
    store().writeIdentity(new StoreIdentity("shoot", "etcd-main"));

    store().delete(older);
    store().delete(older);

    assertThat(store().list()).containsExactly(FULL, DELTA);
    assertThat(store().readIdentity()).hasValue(new StoreIdentity("shoot", "etcd-main"));
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

  @Test
  void anUnreachableOrRefusingStoreIsNamedAndNothingIsLost() throws Exception {
    store().put(FULL, out -> out.write("full".getBytes()));

    try (SnapshotStore unreachable = SnapshotStores.open(unreachableStore())) {
      String where = unreachable.location();
      assertThatThrownBy(unreachable::list).isInstanceOf(StoreException.class)
          .hasMessageContaining(where).hasMessageContaining("cannot list");
      assertThatThrownBy(() -> unreachable.put(DELTA, out -> out.write("delta".getBytes())))
          .isInstanceOf(StoreException.class).hasMessageContaining(where);
      assertThatThrownBy(() -> unreachable.delete(FULL))
          .isInstanceOf(StoreException.class).hasMessageContaining(where);
      assertThatThrownBy(unreachable::readIdentity)
          .isInstanceOf(StoreException.class).hasMessageContaining(where);
    }
    assertThat(store().list()).containsExactly(FULL);
    assertThat(read(FULL)).isEqualTo("full".getBytes());
  }

  byte[] read(Snapshot snapshot) throws IOException {
    try (InputStream in = store().open(snapshot)) {
      return in.readAllBytes();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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

  static byte[] digest(SnapshotStore.ContentWriter writer) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    writer.writeTo(new java.security.DigestOutputStream(OutputStream.nullOutputStream(), md));
    return md.digest();
  }
}
