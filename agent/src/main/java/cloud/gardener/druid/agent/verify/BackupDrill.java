package cloud.gardener.druid.agent.verify;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.restore.TemporaryEtcd;
import cloud.gardener.druid.agent.snapshot.SnapshotIntegrityException;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.api.verify.BackupHashes;
import cloud.gardener.druid.api.verify.BackupHashes.Method;
import cloud.gardener.druid.api.verify.DrillReport;
import cloud.gardener.druid.api.verify.DrillReport.Outcome;
import cloud.gardener.druid.api.verify.DrillReport.Reason;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restore drill: proves that the store's newest backups restore, and restore what etcd held.
 * Checks the chain and reads every delta ({@link DrillChain}); restores the full snapshot
 * alone into a scratch directory and compares a temporary etcd's {@code HashKV} at its
 * revision with the one recorded when it was written; then restores the full snapshot and
 * its deltas up to the newest delta with a recorded hash ({@link Restorer}, the compaction's
 * and the members' restore) and compares the keys and values ({@link KvContentHash}). Only
 * the scratch directory and a loopback etcd are used; the store is only read.
 */
public final class BackupDrill {

  private static final Logger LOG = LoggerFactory.getLogger(BackupDrill.class);

  private final SnapshotStore store;
  private final EtcdTuning etcd;
  private final MemberConfig scratch;
  private final Clock clock;

  /** @param scratch the temporary member: its name, the Etcd and the scratch directory */
  public BackupDrill(SnapshotStore store, EtcdTuning etcd, MemberConfig scratch, Clock clock) {
    this.store = store;
    this.etcd = etcd;
    this.scratch = scratch;
    this.clock = clock;
  }

  public DrillReport run() {
    long started = System.nanoTime();
    Progress p = new Progress();
    try {
      return verify(p, started);
    } catch (DrillFailure f) {
      LOG.warn("restore drill failed at {}: {}", f.object(), f.getMessage());
      return report(p, started, Outcome.FAILED, f.object(), f.reason(), f.getMessage());
    } finally {
      deleteQuietly(scratch.dataDir().toAbsolutePath());
    }
  }

  /** What the drill found so far, for the report. */
  private static final class Progress {
    RestorePlan plan;
    long verifiedRevision;
    String verifiedSnapshotTime;
    long restoreMillis;
    final List<String> proven = new ArrayList<>();
    final List<String> unproven = new ArrayList<>();
  }

  private DrillReport verify(Progress p, long started) throws DrillFailure {
    refuseForeignStore();
    Optional<RestorePlan> plan = DrillChain.of(list());
    if (plan.isEmpty()) {
      return report(p, started, Outcome.NOTHING_TO_VERIFY, null, null,
          "the store " + store.location() + " holds no full snapshot");
    }
    p.plan = plan.get();
    BackupHashes hashes = hashes();
    DrillChain.readDeltas(store, p.plan);
    verifyFull(p, hashes);
    verifyChain(p, hashes);
    if (p.proven.isEmpty()) {
      return report(p, started, Outcome.UNPROVEN, null, null, "restored, but the content is "
          + "not proven: " + String.join("; ", p.unproven));
    }
    List<String> said = new ArrayList<>(p.proven);
    said.addAll(p.unproven);
    return report(p, started, Outcome.VERIFIED, null, null, String.join("; ", said));
  }

  private void verifyFull(Progress p, BackupHashes hashes) throws DrillFailure {
    Snapshot full = p.plan.full();
    Optional<BackupHashes.Record> hashKv = hashes.of(full.fileName(), Method.ETCD_HASH_KV);
    Optional<BackupHashes.Record> content = hashes.of(full.fileName(), Method.KV_SHA256);
    if (hashKv.isEmpty() && content.isEmpty() && !p.plan.deltas().isEmpty()) {
      p.unproven.add("no hash recorded for " + full.fileName());
      return; // the chain's restore reads it anyway
    }
    long began = System.nanoTime();
    Path dir = restore(new RestorePlan(full, List.of()), "full");
    if (p.plan.deltas().isEmpty()) {
      p.restoreMillis = (System.nanoTime() - began) / 1_000_000;
    }
    try (TemporaryEtcd temp = start(dir)) {
      Optional<String> proof = hashKv.isEmpty() ? Optional.empty()
          : compareHashKv(full, temp.client().hashKv(full.endRevision()), hashKv.get());
      if (proof.isEmpty() && content.isPresent()) {
        proof = Optional.of(compareContent(full, KvContentHash.of(temp.client(),
            full.endRevision()), content.get()));
      }
      if (proof.isPresent()) {
        p.proven.add(proof.get());
        p.verifiedRevision = full.endRevision();
        p.verifiedSnapshotTime = full.createdOn().toString();
      } else {
        p.unproven.add("no comparable hash recorded for " + full.fileName());
      }
    } catch (EtcdException | RestoreException | IOException e) {
      throw failed(full.fileName(), "cannot hash the restored full snapshot", e);
    } finally {
      deleteQuietly(dir);
    }
  }

  /** The proof, or empty when the hashes are not comparable (other compaction revisions). */
  private static Optional<String> compareHashKv(Snapshot full, MemberClient.KvHash restored,
      BackupHashes.Record r) throws DrillFailure {
    if (restored.compactRevision() != r.compactRevision()) {
      return Optional.empty();
    }
    if (!Long.toString(restored.hash()).equals(r.hash())) {
      throw new DrillFailure(full.fileName(), Reason.HASH_MISMATCH, "full snapshot "
          + full.fileName() + " restores other content: HashKV at revision "
          + full.endRevision() + " is " + restored.hash() + ", " + r.hash() + " was recorded",
          null);
    }
    return Optional.of("HashKV of " + full.fileName() + " at revision " + full.endRevision()
        + " equal");
  }

  private static String compareContent(Snapshot snapshot, KvContentHash.Result restored,
      BackupHashes.Record r) throws DrillFailure {
    if (!restored.hash().equals(r.hash())) {
      throw new DrillFailure(snapshot.fileName(), Reason.HASH_MISMATCH, "restoring up to "
          + snapshot.fileName() + " gives other keys or values than etcd held at revision "
          + snapshot.endRevision() + " (" + restored.keys() + " keys restored)", null);
    }
    return "keys and values at revision " + snapshot.endRevision() + " (" + snapshot.fileName()
        + ", " + restored.keys() + " keys) equal";
  }

  private void verifyChain(Progress p, BackupHashes hashes) throws DrillFailure {
    List<Snapshot> deltas = p.plan.deltas();
    if (deltas.isEmpty()) {
      return;
    }
    int end = deltas.size() - 1;
    while (end > 0 && hashes.of(deltas.get(end).fileName(), Method.KV_SHA256).isEmpty()) {
      end--;
    }
    Snapshot last = deltas.get(end);
    Optional<BackupHashes.Record> recorded = hashes.of(last.fileName(), Method.KV_SHA256);
    if (recorded.isEmpty()) {
      end = deltas.size() - 1;
      last = deltas.get(end);
      p.unproven.add("no hash recorded for any of the " + deltas.size() + " deltas");
    }
    long began = System.nanoTime();
    Path dir = restore(new RestorePlan(p.plan.full(), deltas.subList(0, end + 1)), "chain");
    p.restoreMillis = (System.nanoTime() - began) / 1_000_000;
    if (recorded.isEmpty()) {
      deleteQuietly(dir);
      return;
    }
    compareContent(p, dir, last, recorded.get());
  }

  private void compareContent(Progress p, Path dir, Snapshot last, BackupHashes.Record r)
      throws DrillFailure {
    try (TemporaryEtcd temp = start(dir)) {
      p.proven.add(compareContent(last, KvContentHash.of(temp.client(), 0), r));
      p.verifiedRevision = Math.max(p.verifiedRevision, last.endRevision());
      p.verifiedSnapshotTime = last.createdOn().toString();
    } catch (EtcdException | RestoreException | IOException e) {
      throw failed(last.fileName(), "cannot hash the restored chain", e);
    } finally {
      deleteQuietly(dir);
    }
  }

  /** Restores {@code plan} into a scratch directory named after {@code what}. */
  private Path restore(RestorePlan plan, String what) throws DrillFailure {
    Path dir = scratch.dataDir().toAbsolutePath().resolve(what + ".etcd");
    MemberConfig member = new MemberConfig(scratch.name(), scratch.etcdName(),
        scratch.namespace(), scratch.podIp(), scratch.advertiseHost(), scratch.clientPort(),
        scratch.peerPort(), scratch.initialCluster(), scratch.clusterToken(), dir,
        Optional.empty(), Optional.empty());
    try {
      new Restorer(store, etcd, member, new RestoreProgress(clock)).restore(plan, staged -> { });
      return dir;
    } catch (RestoreException e) {
      Optional<SnapshotIntegrityException> corrupt = causeOf(e);
      if (corrupt.isPresent()) {
        throw DrillChain.integrity(plan.full().fileName(), corrupt.get());
      }
      throw failed(plan.deltas().isEmpty() ? plan.full().fileName()
          : plan.deltas().get(plan.deltas().size() - 1).fileName(), "the restore failed", e);
    }
  }

  private TemporaryEtcd start(Path dir) throws IOException, RestoreException {
    Path log = dir.resolveSibling(dir.getFileName() + ".log");
    return TemporaryEtcd.start(etcd.etcd(), scratch.name(), dir, log, scratch.etcdCredentials());
  }

  private static Optional<SnapshotIntegrityException> causeOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SnapshotIntegrityException s) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  private List<Snapshot> list() throws DrillFailure {
    try {
      return store.list();
    } catch (IOException e) {
      throw failed(store.location(), "cannot list the store", e);
    }
  }

  private void refuseForeignStore() throws DrillFailure {
    StoreIdentity self = new StoreIdentity(scratch.namespace(), scratch.etcdName());
    try {
      Optional<StoreIdentity> marker = store.readIdentity();
      if (self.ownerOf(marker) == StoreIdentity.Owner.OTHER) {
        throw new DrillFailure(StoreIdentity.OBJECT_NAME, Reason.FOREIGN_STORE,
            "refusing to restore: " + self.foreignStoreMessage(store, marker.get()), null);
      }
    } catch (IOException e) {
      throw new DrillFailure(StoreIdentity.OBJECT_NAME, Reason.DECODE,
          "cannot read the store's identity marker: " + e.getMessage(), e);
    }
  }

  private BackupHashes hashes() throws DrillFailure {
    try {
      return BackupHashRecorder.read(store);
    } catch (IOException e) {
      throw new DrillFailure(BackupHashes.OBJECT_NAME, Reason.DECODE,
          "cannot read the recorded hashes: " + e.getMessage(), e);
    }
  }

  private static DrillFailure failed(String object, String what, Exception e) {
    return new DrillFailure(object, Reason.RESTORE_FAILED, what + ": " + e.getMessage(), e);
  }

  private DrillReport report(Progress p, long started, Outcome outcome, String object,
      Reason reason, String message) {
    return new DrillReport(outcome, p.plan == null ? null : p.plan.full().fileName(),
        p.plan == null ? 0 : p.plan.deltas().size(), p.verifiedRevision, object, reason, message,
        clock.instant().toString(), (System.nanoTime() - started) / 1_000_000, p.restoreMillis,
        p.verifiedSnapshotTime);
  }

  private static void deleteQuietly(Path dir) {
    try {
      Files2.deleteTree(dir);
      Files2.deleteTree(dir.resolveSibling(dir.getFileName() + ".log"));
    } catch (IOException e) {
      LOG.warn("cannot delete {}: {}", dir, e.toString());
    }
  }
}
