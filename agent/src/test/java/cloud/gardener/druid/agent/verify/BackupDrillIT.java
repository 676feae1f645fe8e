package cloud.gardener.druid.agent.verify;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
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
import cloud.gardener.druid.api.verify.BackupHashes;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.api.verify.DrillReport.Outcome;
import cloud.gardener.druid.api.verify.DrillReport.Reason;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restore drills over backups of a real etcd in a real S3 API (s3proxy), recorded as the
 * leader's agent records them: a clean store is verified up to the last delta's revision; a
 * flipped byte in a delta, a tampered hash, a deleted delta and another Etcd's store are each
 * reported by the object's name and why.
 */
class BackupDrillIT {

  private static final String PREFIX = "default--etcd-test";
  @TempDir
  static Path shared;
  @TempDir
  Path work;
  private static S3ProxyServer s3;
  private static int buckets;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = new S3ProxyServer(shared.resolve("s3"));
  }

  @AfterAll
  static void stopS3() throws Exception {
    s3.close();
  }

  @Test
  void cleanBackupsAreVerifiedUpToTheLastDelta() throws Exception {
    try (SnapshotStore store = newStore()) {
      List<Snapshot> written = backUp(store, SnapshotCompression.GZIP);
      DrillReport report = drill(store);

      assertThat(report.outcome()).as(report.message()).isEqualTo(Outcome.VERIFIED);
      assertThat(report.fullSnapshot()).isEqualTo(written.get(0).fileName());
      assertThat(report.deltas()).isEqualTo(written.size() - 1);
      assertThat(report.verifiedRevision()).isEqualTo(written.get(written.size() - 1)
          .endRevision());
      assertThat(report.message()).contains("HashKV of " + written.get(0).fileName())
          .contains("keys and values at revision " + report.verifiedRevision());
      assertThat(report.restoreMillis()).isPositive();
      assertThat(work.resolve("drill")).doesNotExist();
    }
  }

  @Test
  void aFlippedByteInADeltaIsNamed() throws Exception {
    try (SnapshotStore store = newStore()) {
      List<Snapshot> written = backUp(store, SnapshotCompression.NONE);
      Snapshot delta = written.get(2);
      byte[] bytes;
      try (InputStream in = store.open(delta)) {
        bytes = in.readAllBytes();
      }
      bytes[bytes.length / 2] ^= 0x01;
      store.put(delta, out -> out.write(bytes));

      DrillReport report = drill(store);

      assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(report.object()).isEqualTo(delta.fileName());
      assertThat(report.reason()).isEqualTo(Reason.CHECKSUM);
      assertThat(report.message()).contains("SHA-256");
    }
  }

  @Test
  void aTamperedHashIsNamedForTheFullSnapshotAndForADelta() throws Exception {
    try (SnapshotStore store = newStore()) {
      List<Snapshot> written = backUp(store, SnapshotCompression.GZIP);
      BackupHashes recorded = BackupHashRecorder.read(store);
      Snapshot full = written.get(0);
      BackupHashes.Record fullHash = recorded.of(full.fileName(),
          BackupHashes.Method.ETCD_HASH_KV).orElseThrow();
      store.writeMarker(BackupHashes.OBJECT_NAME, recorded.with(new BackupHashes.Record(
          fullHash.snapshot(), fullHash.revision(), fullHash.method(),
          Long.toString(Long.parseLong(fullHash.hash()) ^ 1), fullHash.compactRevision(),
          fullHash.member(), fullHash.recordedAt())).toJson());

      DrillReport report = drill(store);
      assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(report.object()).isEqualTo(full.fileName());
      assertThat(report.reason()).isEqualTo(Reason.HASH_MISMATCH);

      Snapshot last = written.get(written.size() - 1);
      BackupHashes.Record deltaHash = recorded.of(last.fileName(),
          BackupHashes.Method.KV_SHA256).orElseThrow();
      store.writeMarker(BackupHashes.OBJECT_NAME, recorded.with(new BackupHashes.Record(
          deltaHash.snapshot(), deltaHash.revision(), deltaHash.method(),
          "0".repeat(64), 0, deltaHash.member(), deltaHash.recordedAt())).toJson());
      report = drill(store);
      assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(report.object()).isEqualTo(last.fileName());
      assertThat(report.reason()).isEqualTo(Reason.HASH_MISMATCH);
    }
  }

  @Test
  void aDeletedDeltaInTheMiddleIsNamed() throws Exception {
    try (SnapshotStore store = newStore()) {
      List<Snapshot> written = backUp(store, SnapshotCompression.GZIP);
      store.delete(written.get(2));

      DrillReport report = drill(store);
      assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(report.reason()).isEqualTo(Reason.MISSING_DELTA);
      assertThat(report.object()).isEqualTo(written.get(3).fileName());
      assertThat(report.message()).contains("revisions " + written.get(2).startRevision() + "..");
    }
  }

  @Test
  void anotherEtcdsBackupsAreRefusedByIdentityNotRestored() throws Exception {
    try (SnapshotStore store = newStore()) {
      backUp(store, SnapshotCompression.GZIP);
      store.writeIdentity(new StoreIdentity("default", "etcd-other"));

      DrillReport report = drill(store);

      assertThat(report.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(report.reason()).isEqualTo(Reason.FOREIGN_STORE);
      assertThat(report.object()).isEqualTo(StoreIdentity.OBJECT_NAME);
      assertThat(report.restoreMillis()).isZero();
    }
  }

  private SnapshotStore newStore() throws Exception {
    String bucket = "drill-" + (++buckets);
    s3.createBucket(bucket);
    return SnapshotStores.open(s3.storeConfig(bucket, PREFIX));
  }

  /** A full snapshot and four deltas of a changing etcd, hashed as the leader's agent does. */
  private List<Snapshot> backUp(SnapshotStore store, SnapshotCompression compression)
      throws Exception {
    List<Snapshot> written = new ArrayList<>();
    try (LocalEtcd etcd = new LocalEtcd("etcd-test-0", work.resolve("source"),
        work.resolve("source.log"))) {
      BackupHashRecorder recorder = new BackupHashRecorder(etcd.client(), store, "etcd-test-0",
          Clock.systemUTC(), Duration.ZERO);
      etcd.putKeys("/before/", 0, 1_000);
      etcd.client().client().getKVClient().compact(etcd.client().revision()).get();
      etcd.putKeys("/before/", 0, 10); // a full snapshot taken after the compaction
      Snapshot full = new FullSnapshotter(etcd.client(), store, compression, Clock.systemUTC(),
          Duration.ofMinutes(1)).take(false);
      recorder.written(full);
      written.add(full);
      try (DeltaSnapshotter deltas = new DeltaSnapshotter(etcd.client(), store, compression,
          Clock.systemUTC(), 10 << 20, full.endRevision() + 1, () -> { })) {
        for (int round = 0; round < 4; round++) {
          etcd.putKeys("/before/", round * 100, 300);
          etcd.putKeys("/after/" + round + "/", 0, 200);
          etcd.client().client().getKVClient().delete(LocalEtcd.bytes("/before/" + round))
              .get();
          Snapshot delta = awaitFlushed(deltas, etcd);
          recorder.written(delta);
          written.add(delta);
        }
      }
    }
    return written;
  }

  private DrillReport drill(SnapshotStore store) throws Exception {
    MemberConfig scratch = new MemberConfig("etcd-test-drill", "etcd-test", "default",
        "127.0.0.1", "127.0.0.1", LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"),
        java.util.Map.of(), "drill", work.resolve("drill"), Optional.empty(), Optional.empty());
    return new BackupDrill(store, TestConfigs.tuning(), scratch, Clock.systemUTC()).run();
  }

  private static Snapshot awaitFlushed(DeltaSnapshotter deltas, LocalEtcd etcd)
      throws Exception {
    long target = etcd.client().revision();
    Snapshot[] last = new Snapshot[1];
    Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
      Optional<Snapshot> flushed = deltas.flush();
      if (flushed.isPresent()) {
        last[0] = flushed.get();
      }
      return deltas.lastStoredRevision() >= target;
    });
    return last[0];
  }
}
