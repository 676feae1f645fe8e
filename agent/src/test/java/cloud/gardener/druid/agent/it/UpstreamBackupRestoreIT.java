package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static cloud.gardener.druid.agent.testing.LocalEtcd.value;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.testing.EtcdBinaries;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.agent.util.ProcessRunner;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups as etcd-backup-restore writes them (objects placed by name into
 * {@code <prefix>/v2/}, a gzipped {@code etcdctl snapshot save} file as the full snapshot, a
 * Go-encoded delta without compression) restore here.
 */
class UpstreamBackupRestoreIT {

  @TempDir
  Path work;

  @Test
  void restoresAFullSnapshotAndADeltaInTheUpstreamLayout() throws Exception {
    Path v2 = Files.createDirectories(work.resolve("backups/shoot--etcd-main/v2"));
    long revision;
    try (LocalEtcd etcd = new LocalEtcd("etcd-main-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/registry/pods/", 0, 100);
      revision = etcd.client().revision();
      Path saved = work.resolve("saved.db");
      ProcessRunner.run(List.of(EtcdBinaries.dir().resolve("etcdctl").toString(),
          "--endpoints=" + etcd.clientUrl(), "snapshot", "save", saved.toString()),
          Duration.ofMinutes(1));
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(
          v2.resolve(String.format("Full-00000000-%08d-1714557600.gz", revision))))) {
        Files.copy(saved, out);
      }
    }
    String json = "[" + event(0, "/registry/pods/new", "created", revision + 1) + ","
        + event(1, "/registry/pods/7", null, revision + 2) + "]";
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = Files.newOutputStream(v2.resolve(
        String.format("Incr-%08d-%08d-1714557620", revision + 1, revision + 2)))) {
      out.write(bytes);
      out.write(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    Path dataDir = work.resolve("restored");
    new Restorer(new LocalSnapshotStore(work.resolve("backups"), "shoot--etcd-main"),
        TestConfigs.tuning(), TestConfigs.single("etcd-main-0", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), dataDir)).restore(d -> { });

    try (LocalEtcd restored = new LocalEtcd("etcd-main-0", dataDir, work.resolve("r.log"))) {
      assertThat(countPrefix(restored.client(), "/registry/pods/")).isEqualTo(100);
      assertThat(value(restored.client(), "/registry/pods/new")).hasValue("created");
      assertThat(value(restored.client(), "/registry/pods/7")).isEmpty();
      assertThat(restored.client().revision()).as("the revision never goes back")
          .isGreaterThanOrEqualTo(revision + 2);
    }
  }

  /** One event as Go's encoding/json writes etcd-backup-restore's event struct. */
  private static String event(int type, String key, String value, long revision) {
    String kv = "\"key\":\"" + b64(key) + "\""
        + (type == 0 ? ",\"create_revision\":" + revision : "")
        + ",\"mod_revision\":" + revision
        + (type == 0 ? ",\"version\":1,\"value\":\"" + b64(value) + "\"" : "");
    return "{\"etcdEvent\":{" + (type == 1 ? "\"type\":1," : "") + "\"kv\":{" + kv + "}},"
        + "\"time\":\"2024-05-01T10:00:20.123456789Z\"}";
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }
}
