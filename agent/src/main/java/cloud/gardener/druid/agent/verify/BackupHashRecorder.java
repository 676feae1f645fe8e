package cloud.gardener.druid.agent.verify;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.api.verify.BackupHashes;
import cloud.gardener.druid.api.verify.BackupHashes.Method;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records, right after a snapshot is written and on the snapshot thread, what etcd held at the
 * snapshot's revision, into {@link BackupHashes#OBJECT_NAME} next to the snapshots: the key
 * and value hash ({@link KvContentHash}) of every full snapshot and of a delta at most once per
 * {@code deltaInterval} (it reads every key), and etcd's {@code HashKV} of a full snapshot
 * (not comparable when taken at the compaction revision itself: etcd then answers the hash
 * it kept from before the compaction). A failure to record is
 * logged and never fails the snapshot.
 */
public final class BackupHashRecorder implements SnapshotListener {

  private static final Logger LOG = LoggerFactory.getLogger(BackupHashRecorder.class);
  /** Deltas whose content is hashed: one per this interval (each hash reads every key). */
  public static final Duration DELTA_INTERVAL = Duration.ofMinutes(10);

  private final MemberClient etcd;
  private final SnapshotStore store;
  private final String member;
  private final Clock clock;
  private final Duration deltaInterval;
  private final Executor executor;
  private volatile Instant lastDeltaRecord = Instant.MIN;

  /** Records on the thread that tells it about a snapshot (tests, benchmarks). */
  public BackupHashRecorder(MemberClient etcd, SnapshotStore store, String member, Clock clock,
      Duration deltaInterval) {
    this(etcd, store, member, clock, deltaInterval, Runnable::run);
  }

  private BackupHashRecorder(MemberClient etcd, SnapshotStore store, String member,
      Clock clock, Duration deltaInterval, Executor executor) {
    this.etcd = etcd;
    this.store = store;
    this.member = member;
    this.clock = clock;
    this.deltaInterval = deltaInterval;
    this.executor = executor;
  }

  /**
   * Records on a thread of its own, so that hashing (it reads every key: seconds per 100 MiB)
   * never delays the next snapshot; at most one record waits, others are skipped (a hash of an
   * older revision may fail once etcd compacted it: logged, not recorded).
   */
  public static BackupHashRecorder inBackground(MemberClient etcd, SnapshotStore store,
      String member, Clock clock, Duration deltaInterval) {
    ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(1), r -> {
          Thread t = new Thread(r, "backup-hashes");
          t.setDaemon(true);
          return t;
        }, (task, pool) -> LOG.info("a snapshot's hash is skipped: the previous one is still"
            + " being computed"));
    return new BackupHashRecorder(etcd, store, member, clock, deltaInterval, executor);
  }

  @Override
  public void written(Snapshot snapshot) {
    Instant now = clock.instant();
    if (!snapshot.isFull() && now.isBefore(lastDeltaRecord.plus(deltaInterval))) {
      return;
    }
    if (!snapshot.isFull()) {
      lastDeltaRecord = now;
    }
    executor.execute(() -> record(snapshot, now));
  }

  private void record(Snapshot snapshot, Instant now) {
    long started = System.nanoTime();
    try {
      BackupHashes.Record record = delta(snapshot, now);
      BackupHashes recorded = read(store).with(record);
      if (snapshot.isFull()) {
        record = full(snapshot, now);
        recorded = recorded.with(record);
      }
      store.writeMarker(BackupHashes.OBJECT_NAME, recorded.toJson());
      LOG.info("recorded {} {} of {} at revision {} in {} ms", record.method(), record.hash(),
          snapshot, record.revision(), (System.nanoTime() - started) / 1_000_000);
    } catch (IOException | EtcdException | RuntimeException e) {
      LOG.warn("no hash recorded for {}: {}", snapshot, e.getMessage());
    }
  }

  @Override
  public void failed(Snapshot.Kind kind, Exception error) {
  }

  private BackupHashes.Record full(Snapshot snapshot, Instant now) throws EtcdException {
    MemberClient.KvHash h = etcd.hashKv(snapshot.endRevision());
    return new BackupHashes.Record(snapshot.fileName(), snapshot.endRevision(),
        Method.ETCD_HASH_KV, Long.toString(h.hash()), h.compactRevision(), member,
        now.toString());
  }

  private BackupHashes.Record delta(Snapshot snapshot, Instant now) throws EtcdException {
    KvContentHash.Result h = KvContentHash.of(etcd, snapshot.endRevision());
    return new BackupHashes.Record(snapshot.fileName(), snapshot.endRevision(),
        Method.KV_SHA256, h.hash(), 0, member, now.toString());
  }

  /** The recorded hashes of {@code store}; none when it holds no record object yet. */
  static BackupHashes read(SnapshotStore store) throws IOException {
    Optional<byte[]> json = store.readMarker(BackupHashes.OBJECT_NAME);
    return json.isEmpty() ? BackupHashes.empty() : BackupHashes.parse(json.get());
  }
}
