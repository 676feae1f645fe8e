package cloud.gardener.druid.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.snapshot.SnapshotCompression;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.testing.InterruptedUploadMain;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    killMidUpload(List.of("Local", root.toString()));
    assertNothingPartialThenSnapshotSucceeds(new LocalSnapshotStore(root, "default--etcd-test"));
  }

  @Test
  void s3Store() throws Exception {
    try (S3ProxyServer s3 = new S3ProxyServer(work.resolve("s3"))) {
      s3.createBucket("backups");
      killMidUpload(List.of("S3", "backups", s3.endpoint().toString(),
          s3.secretDir().toString()));
      try (SnapshotStore store = SnapshotStores.open(
          s3.storeConfig("backups", "default--etcd-test"))) {
        assertNothingPartialThenSnapshotSucceeds(store);
      }
    }
  }

  private static void killMidUpload(List<String> storeArgs) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), InterruptedUploadMain.class.getName()));
    command.addAll(storeArgs);
    Process uploader = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(uploader.getInputStream()))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals("UPLOADING")) {
        // skip log lines until the upload is under way
      }
      assertThat(line).as("the uploader reached the middle of its upload").isEqualTo("UPLOADING");
    } finally {
      uploader.destroyForcibly();
      uploader.waitFor(30, TimeUnit.SECONDS);
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
