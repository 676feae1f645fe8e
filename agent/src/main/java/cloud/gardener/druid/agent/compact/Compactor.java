package cloud.gardener.druid.agent.compact;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.restore.TemporaryEtcd;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.util.Files2;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts an Etcd's backups (upstream: {@code etcdbrctl compact}): restores the newest full
 * snapshot and every delta after it into a scratch data directory ({@link Restorer}, which
 * ends at the last revision the deltas cover and drops the key history before it), opens it
 * in a temporary etcd on loopback, defragments it, and uploads its database as a new full
 * snapshot named after that revision, the database's own. That
 * is the name the members' next full snapshot would have had, so members, restores and
 * upstream's tools take it as the newest full snapshot; deltas written after it continue at
 * the next revision. The old snapshots stay until garbage collection removes them.
 */
public final class Compactor {

  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  /** What a compaction did. */
  public sealed interface Outcome {

    /** A new full snapshot replaces {@code plan}'s full snapshot and deltas. */
    record Compacted(Snapshot snapshot, RestorePlan plan) implements Outcome {
    }

    /** The store holds no full snapshot, or no delta after it. */
    record NothingToCompact(String reason) implements Outcome {
    }
  }

  private final SnapshotStore store;
  private final EtcdTuning etcd;
  private final MemberConfig scratch;
  private final Clock clock;
  private final Duration snapshotTimeout;

  /**
   * @param scratch the temporary member: its name, the Etcd whose backups these are (a store
   *     whose identity marker names another Etcd is refused) and the scratch data directory
   */
  public Compactor(SnapshotStore store, EtcdTuning etcd, MemberConfig scratch, Clock clock,
      Duration snapshotTimeout) {
    this.store = store;
    this.etcd = etcd;
    this.scratch = scratch;
    this.clock = clock;
    this.snapshotTimeout = snapshotTimeout;
  }

  public Outcome compact() throws IOException, RestoreException, EtcdException {
    Optional<RestorePlan> listed = RestorePlan.of(store.list());
    if (listed.isEmpty()) {
      return new Outcome.NothingToCompact("the store holds no full snapshot");
    }
    if (listed.get().deltas().isEmpty()) {
      return new Outcome.NothingToCompact("no delta snapshot after " + listed.get().full());
    }
    Path dataDir = scratch.dataDir().toAbsolutePath();
    Files2.deleteTree(dataDir);
    try {
      long started = System.nanoTime();
      // the store may have gained deltas since the listing: the restore's own plan counts
      RestorePlan plan = new Restorer(store, etcd, scratch, new RestoreProgress(clock),
          Restorer.Compaction.PHYSICAL).restore(staged -> { })
          .orElseThrow(() -> new IOException("the full snapshot disappeared from "
              + store.location() + " during the compaction"));
      long restored = System.nanoTime();
      Snapshot compacted = compactAndUpload(plan, dataDir);
      LOG.info("compacted {} and {} deltas into {} (restore {} ms, compact, defragment and "
          + "upload {} ms)", plan.full(), plan.deltas().size(), compacted,
          (restored - started) / 1_000_000, (System.nanoTime() - restored) / 1_000_000);
      return new Outcome.Compacted(compacted, plan);
    } finally {
      Files2.deleteTree(dataDir);
    }
  }

  private Snapshot compactAndUpload(RestorePlan plan, Path dataDir)
      throws IOException, RestoreException, EtcdException {
    Path log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
    Files.deleteIfExists(log);
    try (TemporaryEtcd temp = TemporaryEtcd.start(etcd.etcd(), scratch.name(), dataDir, log,
        scratch.etcdCredentials())) {
      // the restore compacted the history at its last revision already
      temp.client().defragment();
      SnapshotCompression compression = SnapshotCompression.like(plan.full());
      Snapshot snapshot = Snapshot.full(0, plan.lastRevision(), clock.instant(),
          compression.format(), false);
      return new FullSnapshotter(temp.client(), store, compression, clock, snapshotTimeout)
          .write(snapshot);
    }
  }
}
