package cloud.gardener.druid.agent.restore;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static cloud.gardener.druid.agent.testing.LocalEtcd.value;
import static cloud.gardener.druid.agent.testing.LocalEtcd.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.DeltaSnapshotter;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.SortedMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full snapshot plus deltas taken from a real etcd restore every key into a new member. */
class SnapshotRestoreIT {

  @TempDir
  Path work;

  @Test
  void restoresTheFullSnapshotAndEveryDeltaAfterIt() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/before/", 0, 10_000);
      Snapshot full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.GZIP, Clock.systemUTC(),
          Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), store, SnapshotCompression.GZIP,
          Clock.systemUTC(), 10 << 20, full.endRevision() + 1, () -> { })) {
        etcd.putKeys("/after/", 0, 1_000);
        awaitFlushed(deltas, etcd);
        etcd.putKeys("/after/", 1_000, 1_000);
        etcd.client().client().getKVClient().delete(LocalEtcd.bytes("/before/7")).get();
        awaitFlushed(deltas, etcd);
      }
    }
    // at least one delta per batch; more when a flush came before the watch had delivered a
    // whole batch (a busy machine), which the restore must replay just the same
    assertThat(store.list()).filteredOn(s -> !s.isFull()).hasSizeGreaterThanOrEqualTo(2);

    MemberConfig member = TestConfigs.single("etcd-test-0", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), work.resolve("restored"));
    Optional<RestorePlan> plan = new Restorer(store, TestConfigs.tuning(), member)
        .restore(dir -> { });
    assertThat(plan).isPresent();

    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", work.resolve("restored"),
        work.resolve("restored.log"))) {
      assertThat(countPrefix(restored.client(), "/before/")).isEqualTo(9_999);
      assertThat(countPrefix(restored.client(), "/after/")).isEqualTo(2_000);
      assertThat(value(restored.client(), "/after/1999")).hasValue("value-1999");
      assertThat(value(restored.client(), "/before/7")).isEmpty();
      assertThat(restored.client().revision()).as("the revision never goes back")
          .isGreaterThanOrEqualTo(plan.get().lastRevision());
      assertThat(LocalEtcd.countAll(restored.client())).as("no helper keys left behind")
          .isEqualTo(9_999 + 2_000);
    }
  }

  @Test
  void theRestoredContentEqualsTheSourceAfterOverwritesDeletesAndRecreationsAcrossDeltas()
      throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    SortedMap<String, String> source;
    long sourceRevision;
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      KV kv = etcd.client().client().getKVClient();
      etcd.putKeys("/k/", 0, 300);
      Snapshot full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.GZIP, Clock.systemUTC(),
          Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), store, SnapshotCompression.GZIP,
          Clock.systemUTC(), 10 << 20, full.endRevision() + 1, () -> { })) {
        for (int round = 0; round < 4; round++) {
          for (int i = round; i < 300; i += 3) {
            kv.put(bytes("/k/" + i), bytes("round-" + round + "-" + i)).get();
          }
          for (int i = round * 7; i < 300; i += 11) {
            kv.delete(bytes("/k/" + i)).get();
          }
          for (int i = round * 11; i < 300; i += 13) {
            kv.put(bytes("/k/" + i), bytes("again-" + round)).get();
          }
          kv.txn().Then(Op.put(bytes("/txn/a"), bytes("a" + round), PutOption.DEFAULT),
              Op.delete(bytes("/txn/b"), DeleteOption.DEFAULT),
              Op.put(bytes("/txn/c" + round), bytes("c"), PutOption.DEFAULT)).commit().get();
          kv.put(bytes("/txn/b"), bytes("b" + round)).get();
          kv.delete(bytes("/k/"), DeleteOption.builder().withRange(bytes("/k/15")).build())
              .get();
          awaitFlushed(deltas, etcd);
        }
      }
      source = LocalEtcd.dump(etcd.client());
      sourceRevision = etcd.client().revision();
    }
    assertThat(store.list()).filteredOn(s -> !s.isFull()).hasSize(4);

    RestorePlan plan = restore(store, "restored");
    assertThat(plan.lastRevision()).isEqualTo(sourceRevision);

    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", work.resolve("restored"),
        work.resolve("restored.log"))) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(source);
      assertThat(restored.client().revision()).as("the revision never goes back")
          .isGreaterThanOrEqualTo(sourceRevision);
      assertThatThrownBy(() -> restored.client().client().getKVClient().get(bytes("/k/1"),
          GetOption.builder().withRevision(sourceRevision - 1).build()).get())
          .as("reads of revisions before the restore are told to relist")
          .hasMessageContaining("compacted");
      // the restore only schedules the compaction: what the temporary etcd did not finish,
      // the member's etcd finishes in the background at its first start
      Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> Files.readString(
          work.resolve("restored.log")).lines().anyMatch(line -> line.contains(
              "\"restored-compact-revision\":" + sourceRevision) || line.contains(
              "\"finished scheduled compaction\"") && line.contains(
              "\"compact-revision\":" + sourceRevision + ",")));
    }
  }

  @Test
  void zlibSnapshotsRestore() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    SnapshotCompression zlib = SnapshotCompression.of(Compression.ZLIB, 6);
    SortedMap<String, String> source;
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/z/", 0, 500);
      Snapshot full = new FullSnapshotter(etcd.client(), store, zlib, Clock.systemUTC(),
          Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), store, zlib,
          Clock.systemUTC(), 10 << 20, full.endRevision() + 1, () -> { })) {
        etcd.putKeys("/z/", 400, 200);
        awaitFlushed(deltas, etcd);
      }
      source = LocalEtcd.dump(etcd.client());
    }
    assertThat(store.list()).extracting(Snapshot::fileName).allMatch(n -> n.endsWith(".zlib"))
        .hasSize(2);

    restore(store, "restored");
    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", work.resolve("restored"),
        work.resolve("restored.log"))) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(source).hasSize(600);
    }
  }

  /**
   * The default (uncompressed) snapshot in a local store is read in place, never copied or
   * changed; its hash is still checked: a flipped byte or a cut file fails the restore and
   * leaves the data directory as it was.
   */
  @Test
  void anUncompressedLocalSnapshotIsRestoredInPlaceAndACorruptOneIsRefused() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    SortedMap<String, String> source;
    Snapshot full;
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/p/", 0, 2_000);
      full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.NONE,
          Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), store,
          SnapshotCompression.NONE, Clock.systemUTC(), 10 << 20, full.endRevision() + 1,
          () -> { })) {
        etcd.putKeys("/p/", 1_500, 1_000);
        awaitFlushed(deltas, etcd);
      }
      source = LocalEtcd.dump(etcd.client());
    }
    Path fullFile = store.directory().resolve(full.fileName());
    assertThat(full.fileName()).doesNotEndWith(".gz");
    byte[] intact = Files.readAllBytes(fullFile);
    Path dataDir = work.resolve("restored");
    Files.createDirectories(dataDir);
    Files.writeString(dataDir.resolve("sentinel"), "before");
    MemberConfig member = TestConfigs.single("etcd-test-0", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), dataDir);
    Restorer restorer = new Restorer(store, TestConfigs.tuning(), member);

    byte[] flipped = intact.clone();
    flipped[flipped.length / 2] ^= 0x5a;
    Files.write(fullFile, flipped);
    assertThatThrownBy(() -> restorer.restore(dir -> { }))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("full snapshot " + full.fileName() + " failed its SHA-256 check")
        .hasMessageContaining("the data directory was left unchanged");
    assertThat(Files.readString(dataDir.resolve("sentinel"))).isEqualTo("before");

    Files.write(fullFile, java.util.Arrays.copyOf(intact, intact.length / 3));
    assertThatThrownBy(() -> restorer.restore(dir -> { }))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("full snapshot " + full.fileName())
        .hasMessageContaining("the data directory was left unchanged");
    assertThat(Files.readString(dataDir.resolve("sentinel"))).isEqualTo("before");
    assertThat(Files.list(work).map(p -> p.getFileName().toString()))
        .as("no staging left behind").noneMatch(n -> n.startsWith("restored."));

    Files.write(fullFile, intact);
    restorer.restore(dir -> { }).orElseThrow();
    assertThat(Files.readAllBytes(fullFile)).as("the store's file is read, never changed")
        .isEqualTo(intact);
    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", dataDir, work.resolve("r.log"))) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(source).hasSize(2_500);
    }
  }

  /**
   * The benchmark's finding: the replay used to take revisions after the store's last one, so
   * the leader's first delta after a restore held every replayed event again and each later
   * restore replayed them once more.
   */
  @Test
  void theRestoreEndsAtTheLastDeltaRevisionSoTheNextDeltaHoldsOnlyNewEvents() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    SortedMap<String, String> source;
    long sourceRevision;
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/before/", 0, 3_000);
      Snapshot full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.GZIP,
          Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
      KV kv = etcd.client().client().getKVClient();
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), store,
          SnapshotCompression.GZIP, Clock.systemUTC(), 64 << 20, full.endRevision() + 1,
          () -> { })) {
        // several batches of the replay (2,000 keys each), with transactions of many events
        etcd.putKeys("/after/", 0, 2_500);
        kv.txn().Then(Op.put(bytes("/txn/a"), bytes("1"), PutOption.DEFAULT),
            Op.put(bytes("/txn/b"), bytes("2"), PutOption.DEFAULT),
            Op.delete(bytes("/before/1"), DeleteOption.DEFAULT),
            Op.delete(bytes("/after/2"), DeleteOption.DEFAULT),
            Op.put(bytes("/before/3"), bytes("changed"), PutOption.DEFAULT)).commit().get();
        awaitFlushed(deltas, etcd);
        etcd.putKeys("/after/", 2_500, 2_000);
        kv.txn().Then(Op.delete(bytes("/txn/a"), DeleteOption.DEFAULT),
            Op.put(bytes("/txn/c"), bytes("3"), PutOption.DEFAULT)).commit().get();
        awaitFlushed(deltas, etcd);
      }
      source = LocalEtcd.dump(etcd.client());
      sourceRevision = etcd.client().revision();
    }

    RestorePlan first = restore(store, "restored");
    assertThat(first.lastRevision()).isEqualTo(sourceRevision);
    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", work.resolve("restored"),
        work.resolve("restored.log"))) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(source);
      assertThat(restored.client().revision()).as("the revision the source had")
          .isEqualTo(sourceRevision);
      // what the leader does after the restore: deltas from the store's last revision + 1
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(restored.client(), store,
          SnapshotCompression.GZIP, Clock.systemUTC(), 64 << 20, first.lastRevision() + 1,
          () -> { })) {
        restored.client().client().getKVClient().put(bytes("/new"), bytes("x")).get();
        awaitFlushed(deltas, restored);
      }
      source = LocalEtcd.dump(restored.client());
    }
    Snapshot next = store.list().stream().filter(s -> !s.isFull())
        .max(Snapshot.ORDER).orElseThrow();
    try (var in = Compressions.decompress(next, store.open(next))) {
      assertThat(DeltaFormat.read(in, next.fileName())).as("only the write after the restore")
          .extracting(e -> new String(e.key(), java.nio.charset.StandardCharsets.UTF_8))
          .containsExactly("/new");
    }

    RestorePlan second = restore(store, "restored-again");
    assertThat(second.deltas()).hasSize(first.deltas().size() + 1);
    try (LocalEtcd again = new LocalEtcd("etcd-test-0", work.resolve("restored-again"),
        work.resolve("restored-again.log"))) {
      assertThat(LocalEtcd.dump(again.client())).isEqualTo(source);
      assertThat(again.client().revision()).isEqualTo(sourceRevision + 1)
          .isEqualTo(second.lastRevision());
    }
  }

  /**
   * A store written before compression became the default (an uncompressed full snapshot and
   * delta) and continued after it (gzip deltas) is
   * restored whole: each snapshot is read by its own format.
   */
  @Test
  void aStoreWrittenUncompressedAndThenCompressedIsRestoredWhole() throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "etcd-test");
    SortedMap<String, String> source;
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      etcd.putKeys("/m/", 0, 800);
      Snapshot full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.NONE,
          Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
      long next;
      try (DeltaSnapshotter before = new DeltaSnapshotter(etcd.client(), store,
          SnapshotCompression.NONE, Clock.systemUTC(), 10 << 20, full.endRevision() + 1,
          () -> { })) {
        etcd.putKeys("/m/", 700, 300);
        awaitFlushed(before, etcd);
        next = before.lastStoredRevision() + 1;
      }
      try (DeltaSnapshotter after = new DeltaSnapshotter(etcd.client(), store,
          SnapshotCompression.GZIP, Clock.systemUTC(), 10 << 20, next, () -> { })) {
        etcd.putKeys("/m/", 900, 300);
        etcd.client().client().getKVClient().delete(LocalEtcd.bytes("/m/3")).get();
        awaitFlushed(after, etcd);
      }
      source = LocalEtcd.dump(etcd.client());
    }
    assertThat(store.list()).extracting(Snapshot::fileName)
        .anyMatch(n -> n.endsWith(".gz")).anyMatch(n -> !n.endsWith(".gz")).hasSize(3);

    restore(store, "restored");
    try (LocalEtcd restored = new LocalEtcd("etcd-test-0", work.resolve("restored"),
        work.resolve("restored.log"))) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(source).hasSize(1_199);
    }
  }

  private RestorePlan restore(LocalSnapshotStore store, String dir) throws Exception {
    MemberConfig member = TestConfigs.single("etcd-test-0", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), work.resolve(dir));
    return new Restorer(store, TestConfigs.tuning(), member).restore(d -> { }).orElseThrow();
  }

  private static void awaitFlushed(DeltaSnapshotter deltas, LocalEtcd etcd) throws Exception {
    long target = etcd.client().revision();
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
      deltas.flush();
      return deltas.lastStoredRevision() >= target;
    });
  }
}
