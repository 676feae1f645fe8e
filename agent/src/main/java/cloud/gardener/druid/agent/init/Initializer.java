package cloud.gardener.druid.agent.init;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.ClusterState;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.init.DataDirValidator.Mode;
import cloud.gardener.druid.agent.init.DataDirValidator.Result;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics.RestoreKind;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.util.Files2;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the data directory before etcd starts and decides how etcd starts:
 * <ol>
 *   <li>a valid directory is used as it is (a guard file is added if it has none);</li>
 *   <li>a single member without valid data restores from the store (a new cluster when the
 *   store is empty);</li>
 *   <li>a member of a multi-member cluster without valid data wipes it and joins the running
 *   cluster as a learner; when no other member answers and it has no data at all, it starts
 *   as a member of a new cluster.</li>
 * </ol>
 * A directory of another Etcd (guard file) stops initialisation for good.
 */
public final class Initializer {

  private static final Logger LOG = LoggerFactory.getLogger(Initializer.class);

  private final MemberConfig member;
  private final DataDirValidator validator;
  private final GuardFile guard;
  private final Optional<SnapshotStore> store;
  private final Optional<Restorer> restorer;
  private final BackupRestoreMetrics metrics;
  private final IntSupplier etcdMinor;

  public Initializer(MemberConfig member, DataDirValidator validator, GuardFile guard,
      Optional<SnapshotStore> store, Optional<Restorer> restorer, BackupRestoreMetrics metrics) {
    this(member, validator, guard, store, restorer, metrics, () -> 0);
  }

  /** {@code etcdMinor}: the minor of this member's etcd, checked against an existing cluster. */
  public Initializer(MemberConfig member, DataDirValidator validator, GuardFile guard,
      Optional<SnapshotStore> store, Optional<Restorer> restorer, BackupRestoreMetrics metrics,
      IntSupplier etcdMinor) {
    this.etcdMinor = etcdMinor;
    this.metrics = metrics;
    this.member = member;
    this.validator = validator;
    this.guard = guard;
    this.store = store;
    this.restorer = restorer;
  }

  public StartPlan initialize(Mode mode)
      throws GuardMismatchException, RestoreException, IOException, EtcdException {
    Path dataDir = member.dataDir();
    metrics.clusterSize(member.initialCluster().size());
    Optional<Long> newestBackup = newestBackupRevision();
    long started = System.nanoTime();
    Result result;
    try {
      result = validator.validate(dataDir, mode, newestBackup);
    } catch (GuardMismatchException | IOException | RuntimeException e) {
      metrics.validated(false, since(started));
      throw e;
    }
    metrics.validated(true, since(started));
    if (result.isValid()) {
      guard.writeTo(dataDir);
      new PeerUrlUpdate(member).beforeStart();
      return StartPlan.of(ClusterState.NEW, member.initialCluster(),
          StartPlan.Outcome.VALID_DATA);
    }
    LOG.info("data directory {} needs initialisation: {}", dataDir, result.problem());
    if (member.existingCluster().joins()) {
      return joinExisting();
    }
    return member.isSingleMember() ? restoreOrStartNew(result) : joinOrBootstrap(result);
  }

  private Optional<Long> newestBackupRevision() {
    if (store.isEmpty() || !member.isSingleMember()) {
      return Optional.empty();
    }
    try {
      StoreIdentity self = new StoreIdentity(member.namespace(), member.etcdName());
      Optional<StoreIdentity> marker = store.get().readIdentity();
      if (self.ownerOf(marker) == StoreIdentity.Owner.OTHER) {
        LOG.warn("not comparing the data with the backups: {}",
            self.foreignStoreMessage(store.get(), marker.get()));
        return Optional.empty();
      }
      return store.get().list().stream().map(Snapshot::endRevision).max(Long::compare);
    } catch (IOException e) {
      LOG.warn("cannot compare the data with the newest backup: {}", e.getMessage());
      return Optional.empty();
    }
  }

  private StartPlan restoreOrStartNew(Result result) throws RestoreException, IOException {
    Map<String, URI> self = Map.of(member.name(), member.advertisePeerUrl());
    if (restorer.isPresent()) {
      long started = System.nanoTime();
      Optional<RestorePlan> restored;
      try {
        restored = restorer.get().restore(this::writeGuard);
      } catch (RestoreException | RuntimeException e) {
        metrics.restored(RestoreKind.SINGLE_NODE, false, since(started));
        throw e;
      }
      if (restored.isPresent()) {
        metrics.restored(RestoreKind.SINGLE_NODE, true, since(started));
        return StartPlan.of(ClusterState.NEW, self, StartPlan.Outcome.RESTORED);
      }
    }
    refuseToWipeData(result);
    wipe();
    return StartPlan.of(ClusterState.NEW, self, StartPlan.Outcome.NEW_MEMBER);
  }

  /**
   * A member of an Etcd that joins an existing cluster never bootstraps a cluster of its own
   * and never restores from the store: without valid data it joins the running cluster (the
   * source's endpoints or a member of this Etcd that joined before), or fails and retries.
   */
  private StartPlan joinExisting() throws IOException, EtcdException {
    ClusterJoiner joiner = new ClusterJoiner(member);
    Optional<MemberClient> cluster = joiner.findRunningCluster();
    if (cluster.isEmpty()) {
      throw new IOException("joining the existing cluster: none of "
          + member.otherClientUrls().values() + " answers (no member was added; retrying)");
    }
    long started = System.nanoTime();
    try (MemberClient client = cluster.get()) {
      new ExistingClusterCheck(member, etcdMinor.getAsInt()).check(client);
      wipe();
      StartPlan joined = joiner.join(client, metrics);
      metrics.restored(RestoreKind.SINGLE_MEMBER, true, since(started));
      return joined;
    }
  }

  private StartPlan joinOrBootstrap(Result result) throws IOException, EtcdException {
    ClusterJoiner joiner = new ClusterJoiner(member);
    Optional<MemberClient> cluster = joiner.findRunningCluster();
    if (cluster.isPresent()) {
      long started = System.nanoTime();
      try (MemberClient client = cluster.get()) {
        wipe();
        StartPlan joined = joiner.join(client, metrics);
        metrics.restored(RestoreKind.SINGLE_MEMBER, true, since(started));
        return joined;
      } catch (IOException | EtcdException | RuntimeException e) {
        metrics.restored(RestoreKind.SINGLE_MEMBER, false, since(started));
        throw e;
      }
    }
    if (result.state() == Result.State.MISSING) {
      refuseToBootstrapOverBackups();
      wipe();
      return StartPlan.of(ClusterState.NEW, member.initialCluster(),
          StartPlan.Outcome.NEW_MEMBER);
    }
    throw new IOException("the data directory is invalid (" + result.problem()
        + ") and no other member of the cluster answers to join it; retrying");
  }

  /**
   * A member without data that finds no running cluster would bootstrap a new, empty one. If
   * the store holds this cluster's backups, the cluster existed and lost its majority: an
   * empty bootstrap would serve no data and its snapshots would follow the real ones. Refuse;
   * the operator restores such a cluster through one member (recoverFromQuorumLoss, or waking
   * up after hibernation with deleted volumes).
   */
  private void refuseToBootstrapOverBackups() throws IOException {
    if (store.isEmpty()) {
      return;
    }
    StoreIdentity self = new StoreIdentity(member.namespace(), member.etcdName());
    if (self.ownerOf(store.get().readIdentity()) == StoreIdentity.Owner.OTHER) {
      return;
    }
    if (!store.get().list().isEmpty()) {
      throw new IOException("no data, no running cluster to join, and the backup store holds"
          + " backups of this cluster: refusing to bootstrap an empty cluster over them;"
          + " recover with an EtcdOpsTask recoverFromQuorumLoss (retrying)");
    }
  }

  /** Data that etcd wrote and no backup holds is never deleted silently. */
  private void refuseToWipeData(Result result) throws IOException {
    if (result.state() == Result.State.INVALID
        && Files.exists(member.dataDir().resolve("member/snap/db"))) {
      throw new IOException("the data directory is invalid (" + result.problem()
          + ") and the backup store holds no snapshot to restore; move "
          + member.dataDir() + " away to start this member empty");
    }
  }

  private static Duration since(long startedNanos) {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  private void wipe() throws IOException {
    Files2.deleteTree(member.dataDir());
    guard.writeTo(member.dataDir());
  }

  private void writeGuard(Path stagedDataDir) {
    try {
      guard.writeTo(stagedDataDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
