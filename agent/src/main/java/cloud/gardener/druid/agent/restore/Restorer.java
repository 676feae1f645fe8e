package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.ProcessCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a data directory from the store: the newest full snapshot (downloaded, hash
 * checked, restored with {@code etcdutl snapshot restore}) plus every delta after it
 * (replayed into a temporary etcd on loopback in large transactions, see
 * {@link DeltaBatcher}), all in a staging directory next to the data directory. Only a
 * complete restore replaces the data directory, by rename; any failure leaves it as it was
 * and says why.
 *
 * <p>With deltas, the replay ends at the last revision backed up, as the source did: the
 * batches take one revision each instead of one per source revision, so the full snapshot is
 * restored with its revision bumped by the revisions the batches do not take (the deltas are
 * counted first, {@link DeltaReader#count()}; the replay must take exactly the transactions
 * counted), and compacted at that last revision afterwards ({@link Compaction}): watchers of
 * the old cluster relist instead of reading replayed history. The leader then continues the
 * deltas from the store's last revision + 1 without writing a replayed event again. The
 * replayed keys get new modification revisions.
 */
public final class Restorer {

  private static final Logger LOG = LoggerFactory.getLogger(Restorer.class);
  /**
   * Keys per replay transaction. etcd formats a trace of every step of a request that takes
   * over 100 ms (a fixed threshold) whether or not it logs it: with 10k keys per transaction
   * that cost a third of its CPU time during a replay. 2k keys stay below it.
   */
  static final int BATCH_KEYS = 2_000;
  /** Key and value bytes per replay transaction. */
  static final long BATCH_BYTES = 8L << 20;
  /** Batches read ahead of the temporary etcd (key and value bytes plus overhead). */
  static final long READ_AHEAD_BYTES = 32L << 20;

  /** How the replayed history is compacted at the replay's last revision. */
  public enum Compaction {
    /**
     * Committed in the temporary etcd, which is stopped without waiting for the old revisions
     * to be deleted: the member's etcd deletes the rest in the background at its first start.
     */
    SCHEDULED,
    /** Waited for until the old revisions are deleted: for a snapshot taken right after. */
    PHYSICAL
  }

  private final SnapshotStore store;
  private final EtcdTuning etcd;
  private final MemberConfig member;
  private final RestoreProgress progress;
  private final Compaction compaction;
  private final long revisionFloor;

  public Restorer(SnapshotStore store, EtcdTuning etcd, MemberConfig member) {
    this(store, etcd, member, new RestoreProgress(java.time.Clock.systemUTC()));
  }

  /** Reports how far each restore is to {@code progress}. */
  public Restorer(SnapshotStore store, EtcdTuning etcd, MemberConfig member,
      RestoreProgress progress) {
    this(store, etcd, member, progress, Compaction.SCHEDULED);
  }

  public Restorer(SnapshotStore store, EtcdTuning etcd, MemberConfig member,
      RestoreProgress progress, Compaction compaction) {
    this(store, etcd, member, progress, compaction, 0);
  }

  private Restorer(SnapshotStore store, EtcdTuning etcd, MemberConfig member,
      RestoreProgress progress, Compaction compaction, long revisionFloor) {
    this.revisionFloor = revisionFloor;
    this.progress = progress;
    this.store = store;
    this.etcd = etcd;
    this.member = member;
    this.compaction = compaction;
  }

  /**
   * This restore with the restored database's revision raised above {@code floor} (a
   * point-in-time restore into a new Etcd ends above the source's revision, so that no
   * watcher takes the new cluster's history for the source's); the content stays the plan's.
   */
  public Restorer withRevisionAbove(long floor) {
    return new Restorer(store, etcd, member, progress, compaction, floor);
  }

  /**
   * Restores into {@code member.dataDir()}; {@code finish} may add files (the guard) to the
   * staged directory before it is swapped in. Returns the plan applied, empty when the store
   * holds no full snapshot (nothing is changed then).
   */
  public Optional<RestorePlan> restore(Consumer<Path> finish) throws RestoreException {
    Optional<RestorePlan> listed = RestorePlan.of(listStore());
    if (listed.isEmpty()) {
      return listed;
    }
    return Optional.of(restore(listed.get(), finish));
  }

  /**
   * Restores exactly {@code chosen} (a full snapshot and a gap-free run of deltas after it,
   * e.g. a restore drill's prefix of the chain) into {@code member.dataDir()}.
   */
  public RestorePlan restore(RestorePlan chosen, Consumer<Path> finish) throws RestoreException {
    Optional<RestorePlan> plan = Optional.of(chosen);
    refuseAnotherEtcdsBackups();
    Path dataDir = member.dataDir().toAbsolutePath();
    Path staging = sibling(dataDir, ".restoring");
    Path work = sibling(dataDir, ".restore-work");
    DeltaReader deltas = null;
    CompletableFuture<Void> hashChecked = CompletableFuture.completedFuture(null);
    try {
      Files2.deleteTree(staging);
      Files2.deleteTree(work);
      Files.createDirectories(work);
      // the deltas are read and batched while the full snapshot is restored
      deltas = plan.get().deltas().isEmpty() ? null : DeltaReader.start(store, plan.get(),
          BATCH_KEYS, BATCH_BYTES, READ_AHEAD_BYTES, work.resolve("deltas"));
      long started = System.nanoTime();
      DeltaReader reader = deltas;
      FullSnapshotRestore.Result full = new FullSnapshotRestore(store, etcd, member, progress)
          .restore(plan.get().full(), work, staging,
              () -> bump(plan.get(), reader == null ? null : reader.count()));
      hashChecked = full.hashChecked();
      long revision = full.revision();
      long fullDone = System.nanoTime();
      if (deltas != null) {
        revision = replayDeltas(plan.get(), deltas, staging, work, revision);
      }
      long deltasDone = System.nanoTime();
      FullSnapshotRestore.awaitHashCheck(hashChecked);
      long hashDone = System.nanoTime();
      Files2.syncTree(staging);
      LOG.info("restore timings: full snapshot {} ms, {} deltas {} ms, then waited {} ms for "
          + "the full snapshot's hash check, sync {} ms", (fullDone - started) / 1_000_000,
          plan.get().deltas().size(), (deltasDone - fullDone) / 1_000_000,
          (hashDone - deltasDone) / 1_000_000, (System.nanoTime() - hashDone) / 1_000_000);
      finish.accept(staging);
      swapIn(staging, dataDir);
      progress.update(RestoreProgress.Phase.DONE, "revision " + revision, 0, 0);
      LOG.info("restored {} from {} up to revision {}", dataDir, store.location(), revision);
      return chosen;
    } catch (RestoreException e) {
      throw corruptionOr(hashChecked, e);
    } catch (IOException | RuntimeException e) {
      throw corruptionOr(hashChecked, failed(e));
    } finally {
      if (deltas != null) {
        deltas.close();
      }
      deleteQuietly(staging);
      deleteQuietly(work);
    }
  }

  private RestoreException failed(Exception e) {
    return new RestoreException("restore from " + store.location() + " failed: "
        + e.getMessage() + "; the data directory was left unchanged", e);
  }

  /**
   * A corrupt full snapshot is reported as such, whatever failed on it first (etcdutl, the
   * temporary etcd): waits for its hash check.
   */
  private RestoreException corruptionOr(CompletableFuture<Void> hashChecked,
      RestoreException failure) {
    try {
      FullSnapshotRestore.awaitHashCheck(hashChecked);
      return failure;
    } catch (IOException e) {
      return failed(e);
    }
  }

  /**
   * The revisions the deltas cover that the replay's transactions do not take, so that the
   * replay ends exactly at the last delta's revision.
   */
  private long bump(RestorePlan plan, DeltaReader.Count count) {
    long transactions = count == null ? 0 : count.transactions();
    long bump = count == null ? 0
        : Math.max(0, count.lastRevision() - plan.full().endRevision() - transactions);
    long end = plan.full().endRevision() + bump + transactions;
    return end > revisionFloor ? bump : bump + revisionFloor + 1 - end;
  }

  /** Backups whose identity marker names another Etcd are never restored here. */
  private void refuseAnotherEtcdsBackups() throws RestoreException {
    StoreIdentity self = new StoreIdentity(member.namespace(), member.etcdName());
    Optional<StoreIdentity> marker;
    try {
      marker = store.readIdentity();
    } catch (IOException e) {
      throw new RestoreException("cannot restore: " + e.getMessage()
          + "; the data directory was left unchanged", e);
    }
    if (self.ownerOf(marker) == StoreIdentity.Owner.OTHER) {
      throw new RestoreException("refusing to restore: " + self.foreignStoreMessage(store,
          marker.get()) + "; the data directory was left unchanged");
    }
  }

  private List<Snapshot> listStore() throws RestoreException {
    try {
      return store.list();
    } catch (IOException e) {
      throw new RestoreException("cannot restore: " + e.getMessage()
          + "; the data directory was left unchanged", e);
    }
  }

  /** Returns the revision of the database after the replay. */
  private long replayDeltas(RestorePlan plan, DeltaReader deltas, Path staging, Path work,
      long fullRevision) throws IOException, RestoreException {
    long started = System.nanoTime();
    try (TemporaryEtcd temp = TemporaryEtcd.start(etcd.etcd(), member.name(), staging,
        work.resolve("etcd.log"), member.etcdCredentials())) {
      long readyCpu = temp.cpuMillis();
      long agentCpu = ProcessCpu.millis(ProcessHandle.current());
      LOG.info("temporary etcd ready in {} ms (its CPU {} ms)",
          (System.nanoTime() - started) / 1_000_000, readyCpu);
      TransactionSender sender = new TransactionSender(temp.sink());
      List<String> names = plan.deltas().stream().map(Snapshot::fileName).toList();
      progress.update(RestoreProgress.Phase.DELTAS, "", 0, names.size());
      for (DeltaBatcher.Batch batch; (batch = deltas.next()) != null; ) {
        sender.send(batch);
        // a batch is cut within its source delta: the deltas before that one are replayed
        progress.update(RestoreProgress.Phase.DELTAS, "", Math.max(0,
            names.indexOf(batch.source())), names.size());
      }
      progress.update(RestoreProgress.Phase.DELTAS, "", names.size(), names.size());
      long revision = sender.finish();
      LOG.info("replayed {} events of revisions {}..{} in {} transactions (CPU: temporary etcd"
          + " {} ms, this JVM {} ms)", deltas.events(), plan.full().endRevision() + 1,
          deltas.sourceRevision(), sender.transactions(), temp.cpuMillis() - readyCpu,
          ProcessCpu.millis(ProcessHandle.current()) - agentCpu);
      DeltaReader.Count counted = deltas.count();
      if (sender.transactions() != counted.transactions()
          || deltas.sourceRevision() != counted.lastRevision()) {
        // the revision bump was made for the count: any other replay ends at another revision
        throw new RestoreException("the replay took " + sender.transactions()
            + " transactions up to revision " + deltas.sourceRevision() + ", but "
            + counted.transactions() + " up to revision " + counted.lastRevision()
            + " were counted; the data directory was left unchanged");
      }
      if (revisionFloor == 0 && revision != deltas.sourceRevision()) {
        // only when a whole batch was deletes of absent keys (no revision taken): the leader
        // then takes a full snapshot before its first delta (SnapshotScheduler)
        LOG.warn("the replay ended at revision {}, not at the last delta's {}", revision,
            deltas.sourceRevision());
      }
      if (revision > fullRevision) {
        long compactStarted = System.nanoTime();
        try {
          switch (compaction) {
            case SCHEDULED -> temp.client().scheduleCompaction(revision);
            case PHYSICAL -> temp.client().compact(revision);
          }
        } catch (EtcdException e) {
          throw new RestoreException("cannot compact the restored database at revision "
              + revision + ": " + e.getMessage() + "; the data directory was left unchanged", e);
        }
        LOG.info("compaction at revision {} {} in {} ms", revision,
            compaction == Compaction.SCHEDULED ? "scheduled" : "done",
            (System.nanoTime() - compactStarted) / 1_000_000);
      }
      long stopStarted = System.nanoTime();
      temp.close();
      LOG.info("temporary etcd stopped in {} ms", (System.nanoTime() - stopStarted) / 1_000_000);
      return revision;
    }
  }

  private static void swapIn(Path staging, Path dataDir) throws IOException {
    Path old = sibling(dataDir, ".replaced");
    Files2.deleteTree(old);
    Files.createDirectories(dataDir.getParent());
    if (Files.exists(dataDir)) {
      Files.move(dataDir, old, StandardCopyOption.ATOMIC_MOVE);
    }
    Files.move(staging, dataDir, StandardCopyOption.ATOMIC_MOVE);
    deleteQuietly(old);
  }

  static Path sibling(Path dataDir, String suffix) {
    return dataDir.resolveSibling(dataDir.getFileName() + suffix);
  }

  private static void deleteQuietly(Path dir) {
    try {
      Files2.deleteTree(dir);
    } catch (IOException e) {
      LOG.warn("cannot delete {}: {}", dir, e.toString());
    }
  }

}
