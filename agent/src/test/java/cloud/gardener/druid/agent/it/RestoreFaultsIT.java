package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.snapshot.DeltaSnapshotter;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults in the backup store (S3 via s3proxy): each restore attempt fails with a clear error
 * and leaves the data directory as it was; once the fault is gone the retry succeeds.
 */
class RestoreFaultsIT {

  private static final int KEYS = 3_000;

  @TempDir
  static Path shared;
  private static LocalSnapshotStore golden;
  private static List<Snapshot> snapshots;

  @TempDir
  Path work;
  private S3ProxyServer s3;
  private SnapshotStore store;
  private Path dataDir;
  private Restorer restorer;

  /** One full snapshot and three deltas of a real etcd, kept as the reference backups. */
  @BeforeAll
  static void takeBackups() throws Exception {
    golden = new LocalSnapshotStore(shared.resolve("golden"), "p");
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", shared.resolve("etcd"),
        shared.resolve("etcd.log"))) {
      etcd.putKeys("/k/", 0, KEYS);
      Snapshot full = new FullSnapshotter(etcd.client(), golden, SnapshotCompression.GZIP, Clock.systemUTC(),
          Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), golden, SnapshotCompression.GZIP,
          Clock.systemUTC(), 10 << 20, full.endRevision() + 1, () -> { })) {
        for (int d = 1; d <= 3; d++) {
          etcd.putKeys("/d" + d + "/", 0, 100);
          long target = etcd.client().revision();
          Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
            deltas.flush();
            return deltas.lastStoredRevision() >= target;
          });
        }
      }
    }
    snapshots = golden.list();
    assertThat(snapshots).hasSize(4);
  }

  @BeforeEach
  void setUp() throws Exception {
    s3 = new S3ProxyServer(work.resolve("s3"));
    s3.createBucket("backups");
    store = SnapshotStores.open(s3.storeConfig("backups", "default--etcd-test"));
    for (Snapshot s : snapshots) {
      copy(s, golden, store);
    }
    dataDir = work.resolve("data/new.etcd");
    Files.createDirectories(dataDir);
    Files.writeString(dataDir.resolve("sentinel"), "the data before the restore");
    MemberConfig member = TestConfigs.single("etcd-test-0", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), dataDir);
    restorer = new Restorer(store, TestConfigs.tuning(), member);
  }

  @AfterEach
  void tearDown() throws Exception {
    store.close();
    s3.close();
  }

  private static void copy(Snapshot s, SnapshotStore from, SnapshotStore to) throws Exception {
    try (InputStream in = from.open(s)) {
      to.put(s, in::transferTo);
    }
  }

  private static byte[] bytesOf(Snapshot s) throws Exception {
    try (InputStream in = golden.open(s)) {
      return in.readAllBytes();
    }
  }

  private Snapshot full() {
    return snapshots.get(0);
  }

  private void assertFailsLeavingDataDirUntouched(String... messageParts) throws Exception {
    assertThatThrownBy(() -> restorer.restore(dir -> { }))
        .isInstanceOf(RestoreException.class)
        .message().contains(messageParts).contains("the data directory was left unchanged");
    assertThat(Files.readString(dataDir.resolve("sentinel")))
        .isEqualTo("the data before the restore");
    assertThat(Files.list(dataDir.getParent()).map(p -> p.getFileName().toString()))
        .containsExactly("new.etcd");
  }

  private void assertRetrySucceeds() throws Exception {
    assertThat(restorer.restore(dir -> { })).isPresent();
    assertThat(dataDir.resolve("sentinel")).doesNotExist();
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", dataDir, work.resolve("restored.log"))) {
      assertThat(countPrefix(etcd.client(), "/k/")).isEqualTo(KEYS);
      assertThat(countPrefix(etcd.client(), "/d3/")).isEqualTo(100);
    }
  }

  @Test
  void corruptFullSnapshot() throws Exception {
    byte[] corrupt = bytesOf(full());
    corrupt[corrupt.length / 2] ^= 0x5a;
    store.put(full(), out -> out.write(corrupt));

    assertFailsLeavingDataDirUntouched("full snapshot " + full().fileName());

    copy(full(), golden, store);
    assertRetrySucceeds();
  }

  @Test
  void missingDeltaInTheMiddle() throws Exception {
    Snapshot middle = snapshots.get(2);
    store.delete(middle);

    assertFailsLeavingDataDirUntouched("missing delta snapshot", "revisions "
        + middle.startRevision() + ".." + middle.endRevision());

    copy(middle, golden, store);
    assertRetrySucceeds();
  }

  @Test
  void truncatedUpload() throws Exception {
    byte[] whole = bytesOf(full());
    store.put(full(), out -> out.write(Arrays.copyOf(whole, whole.length / 3)));

    assertFailsLeavingDataDirUntouched("full snapshot " + full().fileName(), "corrupt");

    copy(full(), golden, store);
    assertRetrySucceeds();
  }

  @Test
  void unreachableStore() throws Exception {
    int port = s3.endpoint().getPort();
    s3.stop();

    assertFailsLeavingDataDirUntouched("cannot restore", "backup store s3://backups/");

    s3.close();
    s3 = new S3ProxyServer(work.resolve("s3"), port);
    assertRetrySucceeds();
  }
}
