package cloud.gardener.druid.agent.compact;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.snapshot.DeltaSnapshotter;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups of a real etcd compacted into one full snapshot: named after the last delta's
 * revision, smaller than replaying the history, and restoring exactly the source's keys.
 */
class CompactorIT {

  @TempDir
  Path work;

  @Test
  void theCompactedFullSnapshotRestoresEveryKeyAtTheLastDeltasRevision() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    SortedMap<String, String> source;
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/before/", 0, 2_000);
      Snapshot full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.GZIP,
          Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), store,
          SnapshotCompression.GZIP, Clock.systemUTC(), 10 << 20, full.endRevision() + 1,
          () -> { })) {
        for (int round = 0; round < 3; round++) {
          etcd.putKeys("/before/", 0, 1_000); // overwrites: history to compact
          etcd.putKeys("/after/", round * 500, 500);
          etcd.client().client().getKVClient().delete(LocalEtcd.bytes("/before/" + round))
              .get();
          awaitFlushed(deltas, etcd);
        }
      }
      source = LocalEtcd.dump(etcd.client());
    }
    List<Snapshot> before = store.list();
    long lastDelta = before.stream().filter(s -> !s.isFull())
        .mapToLong(Snapshot::endRevision).max().orElseThrow();

    MemberConfig scratch = TestConfigs.single("etcd-test-compactor", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), work.resolve("scratch"));
    Compactor.Outcome outcome = new Compactor(store, TestConfigs.tuning(), scratch,
        Clock.systemUTC(), Duration.ofMinutes(1)).compact();

    assertThat(outcome).isInstanceOf(Compactor.Outcome.Compacted.class);
    Snapshot compacted = ((Compactor.Outcome.Compacted) outcome).snapshot();
    assertThat(compacted.isFull()).isTrue();
    assertThat(compacted.endRevision()).isEqualTo(lastDelta);
    assertThat(compacted.compression()).isEqualTo(Snapshot.Compression.GZIP);
    assertThat(store.list()).containsAll(before).contains(compacted);
    assertThat(work.resolve("scratch")).doesNotExist();

    MemberConfig member = TestConfigs.single("etcd-test-0", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), work.resolve("restored"));
    RestorePlan plan = new Restorer(store, TestConfigs.tuning(), member).restore(dir -> { })
        .orElseThrow();
    assertThat(plan.full()).as("the compacted snapshot is the newest full").isEqualTo(compacted);
    assertThat(plan.deltas()).isEmpty();
    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", work.resolve("restored"),
        work.resolve("restored.log"))) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(source);
      assertThat(restored.client().revision()).isGreaterThanOrEqualTo(lastDelta);
    }
  }

  @Test
  void aStoreWithoutDeltasHasNothingToCompact() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/k/", 0, 10);
      new FullSnapshotter(etcd.client(), store, SnapshotCompression.NONE, Clock.systemUTC(),
          Duration.ofMinutes(1)).take(false);
    }
    List<Snapshot> before = store.list();
    MemberConfig scratch = TestConfigs.single("etcd-test-compactor", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), work.resolve("scratch"));
    assertThat(new Compactor(store, TestConfigs.tuning(), scratch, Clock.systemUTC(),
        Duration.ofMinutes(1)).compact())
        .isInstanceOf(Compactor.Outcome.NothingToCompact.class);
    assertThat(store.list()).isEqualTo(before);
  }

  private static void awaitFlushed(DeltaSnapshotter deltas, LocalEtcd etcd) throws Exception {
    long target = etcd.client().revision();
    Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
      deltas.flush();
      return deltas.lastStoredRevision() >= target;
    });
  }
}
