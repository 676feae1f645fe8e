package cloud.gardener.druid.agent.pitr;

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
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.util.Files2;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores an Etcd's backups at a revision or a time into the store of a new Etcd (our
 * extension): the newest full snapshot at or below the revision R and its deltas up to
 * exactly R are restored into a scratch directory ({@link Restorer}, the members' restore
 * path), the database's revision raised above the source's, defragmented in a temporary etcd
 * on loopback and uploaded as the first full snapshot of the new Etcd's own store prefix (in
 * the compression of the full snapshot restored), next to its identity marker. The new
 * Etcd's members then restore it as any member restores its store. The source store is only
 * read.
 */
public final class PointInTimeRestore {

  private static final Logger LOG = LoggerFactory.getLogger(PointInTimeRestore.class);

  /** What was restored: the source's revision, and the new store's first full snapshot. */
  public record Result(long sourceRevision, Snapshot written, long revision, int deltas,
      long restoreMillis) {
  }

  private final SnapshotStore source;
  private final SnapshotStore target;
  private final StoreIdentity targetIdentity;
  private final EtcdTuning etcd;
  private final MemberConfig scratch;
  private final Clock clock;

  /** @param scratch the temporary member: the source Etcd's name and a scratch directory */
  public PointInTimeRestore(SnapshotStore source, SnapshotStore target,
      StoreIdentity targetIdentity, EtcdTuning etcd, MemberConfig scratch, Clock clock) {
    this.source = source;
    this.target = target;
    this.targetIdentity = targetIdentity;
    this.etcd = etcd;
    this.scratch = scratch;
    this.clock = clock;
  }

  /**
   * Restores {@code at}; the new database's revision ends more than {@code margin} above
   * {@code revisionAbove} and above every revision of the source's store, so that a client
   * that saw the source's latest revisions finds the new history compacted past them and
   * relists (etcd's own advice for {@code --bump-revision}).
   */
  public Result run(PointInTime at, long revisionAbove, long margin)
      throws PitrException, IOException, RestoreException, EtcdException {
    refuseUsedTarget();
    RetainedHistory history = RetainedHistory.of(source.list());
    long revision = new DeltaHistory(source, history).revisionOf(at);
    RestorePlan plan = history.planAt(revision);
    long floor = Math.max(revisionAbove, history.newest().orElseThrow().to()) + margin;
    Path dataDir = scratch.dataDir().toAbsolutePath();
    Files2.deleteTree(dataDir);
    try {
      long started = System.nanoTime();
      new Restorer(source, etcd, scratch, new RestoreProgress(clock),
          Restorer.Compaction.PHYSICAL).withRevisionAbove(floor).restore(plan, staged -> { });
      long restoreMillis = (System.nanoTime() - started) / 1_000_000;
      Snapshot written = upload(plan, dataDir);
      LOG.info("restored {} ({} and {} deltas up to revision {}) into {} as {} in {} ms",
          at, plan.full(), plan.deltas().size(), revision, target.location(), written,
          restoreMillis);
      return new Result(revision, written, written.endRevision(), plan.deltas().size(),
          restoreMillis);
    } finally {
      Files2.deleteTree(dataDir);
    }
  }

  /** The new Etcd's prefix must be empty, or hold nothing but its own marker. */
  private void refuseUsedTarget() throws IOException, PitrException {
    List<Snapshot> present = target.list();
    if (!present.isEmpty()) {
      throw new PitrException("the target store " + target.location() + " already holds "
          + present.size() + " snapshots (" + present.get(present.size() - 1)
          + "): a restore goes into an empty store prefix of its own");
    }
    Optional<StoreIdentity> marker = target.readIdentity();
    if (targetIdentity.ownerOf(marker) == StoreIdentity.Owner.OTHER) {
      throw new PitrException(targetIdentity.foreignStoreMessage(target, marker.get()));
    }
    if (source.location().equals(target.location())) {
      throw new PitrException("the target store is the source store " + source.location());
    }
  }

  private Snapshot upload(RestorePlan plan, Path dataDir)
      throws IOException, RestoreException, EtcdException {
    Path log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
    Files.deleteIfExists(log);
    try (TemporaryEtcd temp = TemporaryEtcd.start(etcd.etcd(), scratch.name(), dataDir, log,
        scratch.etcdCredentials())) {
      temp.client().defragment();
      target.writeIdentity(targetIdentity);
      SnapshotCompression compression = SnapshotCompression.like(plan.full());
      Snapshot snapshot = Snapshot.full(0, temp.client().revision(), clock.instant(),
          compression.format(), false);
      return new FullSnapshotter(temp.client(), target, compression, clock,
          Duration.ofHours(1)).write(snapshot);
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
