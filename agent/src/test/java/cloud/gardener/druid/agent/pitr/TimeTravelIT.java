package cloud.gardener.druid.agent.pitr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.snapshot.DeltaSnapshotter;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.S3ProxyServer;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.pitr.TimeTravelReport;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time travel over the backups of a real etcd in a real S3 API (s3proxy): three batches of
 * writes at revisions R1 &lt; R2 &lt; R3, a delete of the prefix /app/ and more writes. A new
 * Etcd's store restored at R2 (or at a time between batch 2 and 3) restores exactly what
 * {@code range --rev=R2} returned on the source, at a revision above the source's; the
 * history finds the delete's revision; an undelete at R3 brings back exactly the prefix's keys
 * without overwriting a key re-created since, while a client writes elsewhere.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TimeTravelIT {

  private static final String SOURCE = "etcd-src";

  @TempDir
  static Path work;
  private S3ProxyServer s3;
  private LocalEtcd source;
  private SnapshotStore store;
  private DeltaSnapshotter deltas;
  private long r1;
  private long r2;
  private long r3;
  private long deleted;
  private Instant betweenBatch2And3;
  private SortedMap<String, String> atR2;
  private SortedMap<String, String> atR3;
  private int targets;

  @BeforeAll
  void writeHistory() throws Exception {
    s3 = new S3ProxyServer(work.resolve("s3"));
    s3.createBucket("pitr");
    store = SnapshotStores.open(s3.storeConfig("pitr", "default--" + SOURCE));
    store.writeIdentity(new StoreIdentity("default", SOURCE));
    source = new LocalEtcd(SOURCE + "-0", work.resolve("source"), work.resolve("source.log"));
    source.putKeys("/other/", 0, 100);
    Snapshot full = fullSnapshot();
    deltas = new DeltaSnapshotter(source.client(), store, SnapshotCompression.GZIP,
        Clock.systemUTC(), 10 << 20, full.endRevision() + 1, () -> { });
    r1 = batch("/app/k-", 0, 50, "v1-");
    flush();
    r2 = batch("/app/k-", 40, 40, "v2-"); // overwrites 40..49, adds 50..79
    atR2 = dump(r2);
    awaitReceived("/app/k-", 40, 40, "v2-"); // batch 2's events carry times before T
    Thread.sleep(2);
    betweenBatch2And3 = Instant.now();
    Thread.sleep(2);
    r3 = batch("/app/k-", 70, 30, "v3-"); // in the same delta as batch 2
    source.putKeys("/other/", 0, 5);
    r3 = source.client().revision();
    atR3 = dump(r3);
    flush();
    fullSnapshot(); // a newer full snapshot: a restore at R2 must take the older one
    deleted = kv().delete(bytes("/app/"), DeleteOption.builder().isPrefix(true).build())
        .get().getHeader().getRevision();
    kv().put(bytes("/app/k-5"), bytes("re-created")).get();
    source.putKeys("/other/", 100, 50);
    flush();
  }

  /** Waits until the snapshotter buffered the events of one batch (and nothing else). */
  private void awaitReceived(String prefix, int from, int count, String value) {
    long bytes = 0;
    for (int i = from; i < from + count; i++) {
      bytes += cloud.gardener.druid.agent.snapshot.DeltaEvent.put(
          (prefix + i).getBytes(StandardCharsets.UTF_8),
          (value + i).getBytes(StandardCharsets.UTF_8), 0, 0, 0, 0, Instant.EPOCH)
          .approximateSize();
    }
    long expected = bytes;
    Awaitility.await().atMost(Duration.ofSeconds(30))
        .until(() -> deltas.bufferedBytes() >= expected);
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {deltas, source, store, s3}) {
      if (c != null) {
        c.close();
      }
    }
  }

  @Test
  @Order(1)
  void aNewEtcdRestoredAtR2HoldsExactlyWhatTheSourceHeldAtR2() throws Exception {
    SnapshotStore target = targetStore();
    PointInTimeRestore.Result result = restore(target, new PointInTime.AtRevision(r2));

    assertThat(result.sourceRevision()).isEqualTo(r2);
    try (LocalEtcd restored = startNewEtcd(target)) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(atR2);
      assertThat(restored.client().revision()).isGreaterThan(source.client().revision());
    }
    assertThat(store.readIdentity()).contains(new StoreIdentity("default", SOURCE));
  }

  @Test
  @Order(2)
  void aNewEtcdRestoredAtATimeBetweenBatch2And3HoldsBatch1And2() throws Exception {
    SnapshotStore target = targetStore();
    PointInTimeRestore.Result result = restore(target,
        new PointInTime.AtTime(betweenBatch2And3));

    assertThat(result.sourceRevision()).isEqualTo(r2);
    try (LocalEtcd restored = startNewEtcd(target)) {
      assertThat(LocalEtcd.dump(restored.client())).isEqualTo(atR2);
    }
  }

  @Test
  @Order(3)
  void aRevisionOutsideTheRetainedHistoryIsRefusedWithTheRangeAvailable() throws Exception {
    SnapshotStore target = targetStore();
    long beyond = source.client().revision() + 1_000;
    assertThatThrownBy(() -> restore(target, new PointInTime.AtRevision(beyond)))
        .isInstanceOf(PitrException.class)
        .hasMessageContaining("revision " + beyond + " is outside the retained history")
        .hasMessageMatching("(?s).*revisions \\d+\\.\\.\\d+ \\(.*\\) are available.*");
    assertThatThrownBy(() -> restore(target, new PointInTime.AtRevision(1)))
        .isInstanceOf(PitrException.class).hasMessageContaining("are available");
    assertThat(target.list()).isEmpty();
  }

  @Test
  @Order(4)
  void theHistoryFindsTheDeletesRevision() throws Exception {
    RetainedHistory history = RetainedHistory.of(store.list());
    List<DeltaHistory.Deletion> deletions = new DeltaHistory(store, history)
        .deletions("/app/");

    assertThat(deletions).singleElement().satisfies(d -> {
      assertThat(d.revision()).isEqualTo(deleted);
      assertThat(d.keys()).isEqualTo(100);
    });
    assertThat(history.oldest().orElseThrow().from()).isLessThan(r1);
    assertThat(history.newest().orElseThrow().to()).isGreaterThan(deleted);
  }

  @Test
  @Order(5)
  void anUndeleteAtR3BringsBackThePrefixWithoutOverwritingAReCreatedKey() throws Exception {
    Undeleter.Request dryRun = new Undeleter.Request("/app/", new PointInTime.AtRevision(r3),
        true, false);
    SortedMap<String, String> before = LocalEtcd.dump(source.client());
    TimeTravelReport preview = undeleter(new ArrayList<>()).run(dryRun);
    assertThat(preview.outcome()).isEqualTo(TimeTravelReport.Outcome.DRY_RUN);
    assertThat(preview.written().count()).isEqualTo(99);
    assertThat(preview.skipped().first()).singleElement().asString().startsWith("/app/k-5: ");
    assertThat(LocalEtcd.dump(source.client())).isEqualTo(before);

    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong failed = new AtomicLong();
    AtomicLong written = new AtomicLong();
    Thread writer = new Thread(() -> writeElsewhere(writing, written, failed));
    writer.start();
    List<String> lines = new ArrayList<>();
    TimeTravelReport report;
    try {
      report = undeleter(lines).run(new Undeleter.Request("/app/",
          new PointInTime.AtRevision(r3), false, false));
    } finally {
      writing.set(false);
      writer.join();
    }

    assertThat(report.outcome()).as(report.message()).isEqualTo(TimeTravelReport.Outcome.DONE);
    assertThat(report.written().count()).isEqualTo(99);
    assertThat(report.skipped().count()).isEqualTo(1);
    assertThat(lines).anyMatch(l -> l.startsWith("skipped /app/k-5: changed since"));
    SortedMap<String, String> after = LocalEtcd.dump(source.client());
    SortedMap<String, String> expectedApp = new TreeMap<>(atR3.subMap("/app/", "/app0"));
    expectedApp.put("/app/k-5", "re-created");
    assertThat(after.subMap("/app/", "/app0")).isEqualTo(expectedApp);
    assertThat(without(after)).as("no other key changed").isEqualTo(without(before));
    assertThat(written.get()).isPositive();
    assertThat(failed.get()).as("failed writes of the client writing elsewhere").isZero();
  }

  private void writeElsewhere(AtomicBoolean writing, AtomicLong written, AtomicLong failed) {
    for (int i = 0; writing.get(); i++) {
      try {
        kv().put(bytes("/writer/" + (i % 50)), bytes("w-" + i)).get(5, TimeUnit.SECONDS);
        written.incrementAndGet();
      } catch (Exception e) {
        failed.incrementAndGet();
      }
    }
  }

  private static SortedMap<String, String> without(SortedMap<String, String> keys) {
    SortedMap<String, String> rest = new TreeMap<>(keys);
    rest.keySet().removeIf(k -> k.startsWith("/app/") || k.startsWith("/writer/"));
    return rest;
  }

  private Undeleter undeleter(List<String> lines) throws Exception {
    MemberConfig scratch = scratch(SOURCE, "undelete");
    return new Undeleter(store, TestConfigs.tuning(), scratch, source.client().client(),
        Clock.systemUTC(), lines::add);
  }

  private PointInTimeRestore.Result restore(SnapshotStore target, PointInTime at)
      throws Exception {
    return new PointInTimeRestore(store, target, new StoreIdentity("default", "etcd-new"),
        TestConfigs.tuning(), scratch(SOURCE, "restore"), Clock.systemUTC())
        .run(at, source.client().revision(), 0);
  }

  /** The new Etcd's member restores its own store, as at its first start. */
  private LocalEtcd startNewEtcd(SnapshotStore target) throws Exception {
    Path dir = work.resolve("new-" + targets);
    RestorePlan plan = new Restorer(target, TestConfigs.tuning(),
        new MemberConfig("etcd-new-0", "etcd-new", "default", "127.0.0.1", "127.0.0.1",
            LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"),
            Map.of("etcd-new-0", URI.create("http://127.0.0.1:2380")), "default-etcd-new",
            dir, Optional.empty(), Optional.empty()))
        .restore(staged -> { }).orElseThrow();
    assertThat(plan.deltas()).isEmpty();
    return new LocalEtcd("etcd-new-0", dir, work.resolve("new-" + targets + ".log"));
  }

  private SnapshotStore targetStore() throws Exception {
    return SnapshotStores.open(s3.storeConfig("pitr", "default--etcd-new-" + (++targets)));
  }

  private MemberConfig scratch(String etcd, String what) throws Exception {
    return new MemberConfig(etcd + "-" + what, etcd, "default", "127.0.0.1", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), Map.of(), what,
        work.resolve(what + "-" + targets), Optional.empty(), Optional.empty());
  }

  private long batch(String prefix, int from, int count, String value) throws Exception {
    long revision = 0;
    for (int i = from; i < from + count; i++) {
      revision = kv().put(bytes(prefix + i), bytes(value + i)).get().getHeader().getRevision();
    }
    return revision;
  }

  /** What {@code etcdctl get "" --prefix --rev=revision} returns on the source. */
  private SortedMap<String, String> dump(long revision) throws Exception {
    ByteSequence all = ByteSequence.from(new byte[] {0});
    GetResponse r = kv().get(all, GetOption.builder().withRange(all).withRevision(revision)
        .build()).get(60, TimeUnit.SECONDS);
    SortedMap<String, String> content = new TreeMap<>();
    r.getKvs().forEach(kv -> content.put(kv.getKey().toString(StandardCharsets.UTF_8),
        kv.getValue().toString(StandardCharsets.UTF_8)));
    return content;
  }

  private Snapshot fullSnapshot() throws Exception {
    return new FullSnapshotter(source.client(), store, SnapshotCompression.GZIP,
        Clock.systemUTC(), Duration.ofMinutes(1)).take(false);
  }

  private void flush() throws Exception {
    long target = source.client().revision();
    Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
      deltas.flush();
      return deltas.lastStoredRevision() >= target;
    });
  }

  private KV kv() {
    return source.client().client().getKVClient();
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
