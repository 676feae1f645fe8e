package cloud.gardener.druid.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.agent.testing.InterruptedUploadMain;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed (SIGKILL) in the middle of a full snapshot upload leaves no visible
 * object, in either store, and the next snapshot succeeds.
 */
class SnapshotUploadKillIT {

  @TempDir
  Path work;

  @Test
  void localStore() throws Exception {
    Path root = work.resolve("backups");
    InterruptedUploadMain.killMidUpload(new StoreConfig(StoreConfig.Provider.Local,
        root.toString(), "default--etcd-test", Optional.empty(), Optional.empty()));
    assertNothingPartialThenSnapshotSucceeds(new LocalSnapshotStore(root, "default--etcd-test"));
  }

  @Test
  void s3Store() throws Exception {
    try (S3ProxyServer s3 = new S3ProxyServer(work.resolve("s3"))) {
      s3.createBucket("backups");
      InterruptedUploadMain.killMidUpload(s3.storeConfig("backups", "default--etcd-test"));
      try (SnapshotStore store = SnapshotStores.open(
          s3.storeConfig("backups", "default--etcd-test"))) {
        assertNothingPartialThenSnapshotSucceeds(store);
      }
    }
  }

  private void assertNothingPartialThenSnapshotSucceeds(SnapshotStore store) throws Exception {
    assertThat(store.list()).as("objects visible after the killed upload").isEmpty();
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("etcd"),
        work.resolve("etcd.log"))) {
      etcd.putKeys("/k/", 0, 100);
      Snapshot full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.GZIP, Clock.systemUTC(),
          Duration.ofMinutes(1)).take(false);
      assertThat(store.list()).containsExactly(full);
    }
  }
}
