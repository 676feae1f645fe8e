package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.EtcdSnapshotHash;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.ProcessRunner;
import cloud.gardener.druid.agent.util.ReadAheadInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a data directory from the store: the newest full snapshot (downloaded, hash
 * checked, restored with {@code etcdutl snapshot restore}) plus every delta after it
 * (replayed into a temporary etcd on loopback in large transactions, see
 * {@link DeltaApplier}), all in a staging directory next to the data directory. Only a
 * complete restore replaces the data directory, by rename; any failure leaves it as it was
 * and says why.
 *
 * <p>With deltas, the full snapshot is restored with its revision bumped by the revisions
 * the deltas cover and marked compacted, so the restored cluster's revision is never lower
 * than the last revision backed up (watchers of the old cluster relist instead of missing
 * changes); the replayed keys get new modification revisions.
 */
public final class Restorer {

  private static final Logger LOG = LoggerFactory.getLogger(Restorer.class);
  /** Keys per replay transaction. */
  static final int BATCH_KEYS = 10_000;
  /** Key and value bytes per replay transaction. */
  static final long BATCH_BYTES = 8L << 20;
  private static final int DOWNLOAD_CHUNK = 256 * 1024;

  private final SnapshotStore store;
  private final EtcdTuning etcd;
  private final MemberConfig member;

  public Restorer(SnapshotStore store, EtcdTuning etcd, MemberConfig member) {
    this.store = store;
    this.etcd = etcd;
    this.member = member;
  }

  /**
   * Restores into {@code member.dataDir()}; {@code finish} may add files (the guard) to the
   * staged directory before it is swapped in. Returns the plan applied, empty when the store
   * holds no full snapshot (nothing is changed then).
   */
  public Optional<RestorePlan> restore(Consumer<Path> finish) throws RestoreException {
    Optional<RestorePlan> plan = RestorePlan.of(listStore());
    if (plan.isEmpty()) {
      return plan;
    }
    refuseAnotherEtcdsBackups();
    Path dataDir = member.dataDir().toAbsolutePath();
    Path staging = sibling(dataDir, ".restoring");
    Path work = sibling(dataDir, ".restore-work");
    try {
      Files2.deleteTree(staging);
      Files2.deleteTree(work);
      Files.createDirectories(work);
      long started = System.nanoTime();
      long bump = plan.get().lastRevision() - plan.get().full().endRevision();
      long revision = restoreFull(plan.get().full(), work, staging, bump);
      long fullDone = System.nanoTime();
      if (!plan.get().deltas().isEmpty()) {
        revision = replayDeltas(plan.get(), staging, work);
      }
      long deltasDone = System.nanoTime();
      Files2.syncTree(staging);
      LOG.info("restore timings: full snapshot {} ms, {} deltas {} ms, sync {} ms",
          (fullDone - started) / 1_000_000, plan.get().deltas().size(),
          (deltasDone - fullDone) / 1_000_000, (System.nanoTime() - deltasDone) / 1_000_000);
      finish.accept(staging);
      swapIn(staging, dataDir);
      LOG.info("restored {} from {} up to revision {}", dataDir, store.location(), revision);
      return plan;
    } catch (IOException | RuntimeException e) {
      throw new RestoreException("restore from " + store.location() + " failed: "
          + e.getMessage() + "; the data directory was left unchanged", e);
    } finally {
      deleteQuietly(staging);
      deleteQuietly(work);
    }
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

  /**
   * Downloads and restores the full snapshot, its revision raised by {@code bump} (0: kept).
   * etcdutl skips its own hash check: the download verified the same hash on the bytes it
   * wrote (etcdutl still cuts the hash off the database).
   */
  private long restoreFull(Snapshot full, Path work, Path staging, long bump)
      throws IOException {
    Path db = work.resolve("snapshot.db");
    long started = System.nanoTime();
    download(full, db);
    long downloaded = System.nanoTime();
    URI peerUrl = member.advertisePeerUrl();
    List<String> command = new ArrayList<>(List.of(etcd.etcdutl().toString(), "snapshot",
        "restore", db.toString(),
        "--data-dir=" + staging,
        "--name=" + member.name(),
        "--initial-cluster=" + member.name() + "=" + peerUrl,
        "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster-token=" + member.clusterToken(),
        "--skip-hash-check"));
    if (bump > 0) {
      command.addAll(List.of("--bump-revision=" + bump, "--mark-compacted"));
    }
    ProcessRunner.run(command, Duration.ofMinutes(30));
    LOG.info("full snapshot {}: download {} ms, etcdutl restore {} ms", full,
        (downloaded - started) / 1_000_000, (System.nanoTime() - downloaded) / 1_000_000);
    Files.delete(db);
    return full.endRevision() + bump;
  }

  /** Reading and decompressing run ahead on their own thread, hashing and writing on this one. */
  private void download(Snapshot full, Path db) throws IOException {
    try (InputStream raw = store.open(full);
        InputStream in = new ReadAheadInputStream(Compressions.decompress(full, raw), 8,
            DOWNLOAD_CHUNK, "download " + full);
        OutputStream file = Files.newOutputStream(db)) {
      EtcdSnapshotHash hashed = new EtcdSnapshotHash(file);
      try {
        in.transferTo(hashed);
      } catch (ZipException | EOFException e) {
        throw new SnapshotIntegrityException(
            "full snapshot " + full + " is corrupt: " + e.getMessage(), e);
      }
      hashed.verify("full snapshot " + full);
    }
  }

  /**
   * Returns the revision of the database after the replay. The next delta is read (downloaded,
   * verified, parsed) on a thread of its own while the current one is applied.
   */
  private long replayDeltas(RestorePlan plan, Path staging, Path work)
      throws IOException, RestoreException {
    long started = System.nanoTime();
    ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "delta reader");
      t.setDaemon(true);
      return t;
    });
    try (TemporaryEtcd temp = TemporaryEtcd.start(etcd.etcd(), member.name(), staging,
        work.resolve("etcd.log"))) {
      LOG.info("temporary etcd ready in {} ms", (System.nanoTime() - started) / 1_000_000);
      DeltaApplier applier = new DeltaApplier(temp.sink(), plan.full().endRevision(),
          BATCH_KEYS, BATCH_BYTES);
      List<Snapshot> deltas = plan.deltas();
      Future<List<DeltaEvent>> next = reader.submit(() -> readDelta(deltas.get(0)));
      for (int i = 0; i < deltas.size(); i++) {
        List<DeltaEvent> events = await(next);
        if (i + 1 < deltas.size()) {
          Snapshot following = deltas.get(i + 1);
          next = reader.submit(() -> readDelta(following));
        }
        applier.apply(events, deltas.get(i).fileName());
      }
      long revision = applier.finish();
      LOG.info("replayed {} events of revisions {}..{} in {} transactions", applier.events(),
          plan.full().endRevision() + 1, applier.sourceRevision(), applier.transactions());
      return revision;
    } finally {
      reader.shutdownNow();
    }
  }

  private static List<DeltaEvent> await(Future<List<DeltaEvent>> delta) throws IOException {
    try {
      return delta.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading a delta snapshot");
    }
  }

  private List<DeltaEvent> readDelta(Snapshot delta) throws IOException {
    try (InputStream raw = store.open(delta);
        InputStream in = Compressions.decompress(delta, raw)) {
      return DeltaFormat.read(in, "delta snapshot " + delta);
    } catch (ZipException | EOFException e) {
      throw new SnapshotIntegrityException(
          "delta snapshot " + delta + " is corrupt: " + e.getMessage(), e);
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
