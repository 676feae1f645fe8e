package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.snapshot.Compressions;
import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import cloud.gardener.druid.agent.snapshot.DeltaFormat;
import cloud.gardener.druid.agent.snapshot.EtcdSnapshotHash;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.ProcessRunner;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a data directory from the store: the newest full snapshot (downloaded, hash
 * checked, restored with {@code etcdutl snapshot restore}) plus every delta after it
 * (replayed into a temporary etcd on loopback), all in a staging directory next to the data
 * directory. Only a complete restore replaces the data directory, by rename; any failure
 * leaves it as it was and says why.
 */
public final class Restorer {

  private static final Logger LOG = LoggerFactory.getLogger(Restorer.class);

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
    Path dataDir = member.dataDir().toAbsolutePath();
    Path staging = sibling(dataDir, ".restoring");
    Path work = sibling(dataDir, ".restore-work");
    try {
      Files2.deleteTree(staging);
      Files2.deleteTree(work);
      Files.createDirectories(work);
      long started = System.nanoTime();
      long revision = restoreFull(plan.get().full(), work, staging);
      long fullDone = System.nanoTime();
      if (!plan.get().deltas().isEmpty()) {
        revision = replayDeltas(plan.get().deltas(), staging, work);
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
    } catch (IOException | EtcdException | RuntimeException e) {
      throw new RestoreException("restore from " + store.location() + " failed: "
          + e.getMessage() + "; the data directory was left unchanged", e);
    } finally {
      deleteQuietly(staging);
      deleteQuietly(work);
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

  private long restoreFull(Snapshot full, Path work, Path staging) throws IOException {
    Path db = work.resolve("snapshot.db");
    download(full, db);
    URI peerUrl = member.advertisePeerUrl();
    ProcessRunner.run(List.of(etcd.etcdutl().toString(), "snapshot", "restore", db.toString(),
        "--data-dir=" + staging,
        "--name=" + member.name(),
        "--initial-cluster=" + member.name() + "=" + peerUrl,
        "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster-token=" + member.clusterToken()), Duration.ofMinutes(30));
    Files.delete(db);
    return full.endRevision();
  }

  private void download(Snapshot full, Path db) throws IOException {
    try (InputStream raw = store.open(full);
        InputStream in = Compressions.decompress(full, raw);
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

  private long replayDeltas(List<Snapshot> deltas, Path staging, Path work)
      throws IOException, EtcdException, RestoreException {
    try (TemporaryEtcd temp = TemporaryEtcd.start(etcd.etcd(), member.name(), staging,
        work.resolve("etcd.log"))) {
      DeltaApplier applier = new DeltaApplier(temp.client());
      for (Snapshot delta : deltas) {
        applier.apply(readDelta(delta), delta.fileName());
      }
      return applier.revision();
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
