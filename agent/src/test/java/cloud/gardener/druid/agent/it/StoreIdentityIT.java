package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.config.SnapshotPolicy;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.snapshot.SnapshotScheduler;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.v1alpha1.GarbageCollectionPolicy;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Etcds sharing a store prefix: the identity marker next to the snapshots keeps one from
 * restoring (or writing over) the other's backups, in the Local and the S3 store.
 */
class StoreIdentityIT {

  private static final StoreIdentity SELF = new StoreIdentity("default", "etcd-test");
  private static final StoreIdentity OTHER = new StoreIdentity("other", "etcd-x");

  @TempDir
  static Path shared;
  private static LocalSnapshotStore golden;
  private static Snapshot full;
  private static S3ProxyServer s3;
  private static LocalEtcd etcd;

  @TempDir
  Path work;

  @BeforeAll
  static void takeBackup() throws Exception {
    golden = new LocalSnapshotStore(shared.resolve("golden"), "p");
    etcd = new LocalEtcd("etcd-test-0", shared.resolve("etcd"), shared.resolve("etcd.log"));
    etcd.putKeys("/k/", 0, 200);
    full = new FullSnapshotter(etcd.client(), golden, SnapshotCompression.GZIP,
        Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
    s3 = new S3ProxyServer(shared.resolve("s3"));
    s3.createBucket("backups");
  }

  @AfterAll
  static void stop() throws Exception {
    etcd.close();
    s3.close();
  }

  private static SnapshotStore withBackup(SnapshotStore store) throws Exception {
    try (InputStream in = golden.open(full)) {
      store.put(full, in::transferTo);
    }
    return store;
  }

  private SnapshotStore localStore() throws Exception {
    return withBackup(new LocalSnapshotStore(work.resolve("local"), "shared-prefix"));
  }

  private SnapshotStore s3Store() throws Exception {
    return withBackup(SnapshotStores.open(s3.storeConfig("backups",
        "shared-" + work.getFileName())));
  }

  private void refusesAnotherEtcdsBackupsThenRestoresItsOwn(SnapshotStore store)
      throws Exception {
    Path dataDir = work.resolve("data/new.etcd");
    Files.createDirectories(dataDir);
    Files.writeString(dataDir.resolve("sentinel"), "the data before the restore");
    Restorer restorer = new Restorer(store, TestConfigs.tuning(), TestConfigs.single(
        "etcd-test-0", "127.0.0.1", LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"),
        dataDir));
    store.writeIdentity(OTHER);

    assertThatThrownBy(() -> restorer.restore(dir -> { }))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("refusing to restore")
        .hasMessageContaining("belong to Etcd other/etcd-x, not to default/etcd-test")
        .hasMessageContaining(store.location())
        .hasMessageContaining("the data directory was left unchanged");
    assertThat(Files.readString(dataDir.resolve("sentinel")))
        .isEqualTo("the data before the restore");
    assertThat(Files.list(dataDir.getParent())).hasSize(1);

    store.writeIdentity(SELF);
    assertThat(restorer.restore(dir -> { })).isPresent();
    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", dataDir, work.resolve("r.log"))) {
      assertThat(countPrefix(restored.client(), "/k/")).isEqualTo(200);
    }
  }

  @Test
  void localStore_refusesAnotherEtcdsBackupsAndRestoresItsOwn() throws Exception {
    refusesAnotherEtcdsBackupsThenRestoresItsOwn(localStore());
  }

  @Test
  void s3Store_refusesAnotherEtcdsBackupsAndRestoresItsOwn() throws Exception {
    try (SnapshotStore store = s3Store()) {
      refusesAnotherEtcdsBackupsThenRestoresItsOwn(store);
    }
  }

  private static SnapshotScheduler scheduler(SnapshotStore store) {
    SnapshotPolicy policy = new SnapshotPolicy(CronSchedule.parse("0 0 1 1 *"),
        Duration.ofHours(1), 10 << 20, SnapshotCompression.GZIP,
        GarbageCollectionPolicy.LimitBased, 7, Duration.ofHours(1), Duration.ZERO);
    return new SnapshotScheduler(etcd.client(), store, policy, Clock.systemUTC(),
        Duration.ofMinutes(1), SnapshotListener.NONE, SELF);
  }

  @Test
  void theFirstSnapshotIntoAnEmptyPrefixClaimsIt() throws Exception {
    try (SnapshotStore store = SnapshotStores.open(s3.storeConfig("backups",
        "empty-" + work.getFileName())); SnapshotScheduler scheduler = scheduler(store)) {
      scheduler.fullNow(false);
      assertThat(store.readIdentity()).hasValue(SELF);
      assertThat(store.list()).hasSize(1);
    }
  }

  @Test
  void noSnapshotIsWrittenIntoAPrefixAnotherEtcdsMarkerNames() throws Exception {
    SnapshotStore store = new LocalSnapshotStore(work.resolve("local"), "foreign");
    store.writeIdentity(OTHER);
    try (SnapshotScheduler scheduler = scheduler(store)) {
      assertThatThrownBy(() -> scheduler.fullNow(false))
          .hasMessageContaining("not writing snapshots")
          .hasMessageContaining("belong to Etcd other/etcd-x, not to default/etcd-test");
    }
    assertThat(store.list()).isEmpty();
  }

  @Test
  void aPrefixWithBackupsButNoMarkerIsNotClaimed() throws Exception {
    SnapshotStore store = localStore();
    etcd.putKeys("/unclaimed/", 0, 1);
    try (SnapshotScheduler scheduler = scheduler(store)) {
      scheduler.fullNow(false);
    }
    assertThat(store.readIdentity()).isEmpty();
    assertThat(store.list()).hasSize(2);
  }
}
