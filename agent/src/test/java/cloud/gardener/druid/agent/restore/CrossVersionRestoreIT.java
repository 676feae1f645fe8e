package cloud.gardener.druid.agent.restore;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static cloud.gardener.druid.agent.testing.LocalEtcd.value;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.snapshot.DeltaSnapshotter;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A full snapshot and a delta taken from an etcd of one minor restore, with the next minor's
 * etcdutl and a temporary etcd of that minor replaying the delta, into a member of the next
 * minor, which serves every key: the backups of a cluster survive its upgrade. The same minor
 * too for 3.5, whose etcd names some flags differently.
 */
class CrossVersionRestoreIT {

  @TempDir
  Path work;

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"3.5, 3.5", "3.5, 3.6", "3.6, 3.7"})
  void aSnapshotOfOneMinorRestoresIntoTheNext(String from, String to) throws Exception {
    Path fromBin = EtcdBuilds.directory(from);
    Path toBin = EtcdBuilds.directory(to);
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    try (LocalEtcd source = new LocalEtcd(fromBin, "etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      assertThat(version(source.clientUrl())).contains("\"etcdserver\":\"" + from + ".");
      source.putKeys("/full/", 0, 2_000);
      Snapshot full = new FullSnapshotter(source.client(), store, SnapshotCompression.GZIP,
          Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(source.client(), store,
          SnapshotCompression.GZIP, Clock.systemUTC(), 10 << 20, full.endRevision() + 1,
          () -> { })) {
        source.putKeys("/delta/", 0, 500);
        long revision = source.client().revision();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
          deltas.flush();
          return deltas.lastStoredRevision() >= revision;
        });
      }
    }

    EtcdTuning defaults = TestConfigs.tuning();
    EtcdTuning next = new EtcdTuning(toBin, defaults.quotaBackendBytes(),
        defaults.snapshotCount(), defaults.heartbeatIntervalMillis(),
        defaults.electionTimeoutMillis(), defaults.autoCompactionMode(),
        defaults.autoCompactionRetention(), defaults.metrics(), defaults.bboltFreelistType());
    MemberConfig member = TestConfigs.single("etcd-test-0", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), work.resolve("restored"));
    Optional<RestorePlan> plan = new Restorer(store, next, member).restore(dir -> { });
    assertThat(plan).isPresent();

    try (LocalEtcd restored = new LocalEtcd(toBin, "etcd-test-0", work.resolve("restored"),
        work.resolve("restored.log"))) {
      assertThat(version(restored.clientUrl())).contains("\"etcdserver\":\"" + to + ".");
      assertThat(countPrefix(restored.client(), "/full/")).isEqualTo(2_000);
      assertThat(countPrefix(restored.client(), "/delta/")).isEqualTo(500);
      assertThat(value(restored.client(), "/delta/499")).hasValue("value-499");
    }
  }

  private static String version(URI clientUrl) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(clientUrl.resolve("/version"))
        .build(), HttpResponse.BodyHandlers.ofString()).body();
  }
}
