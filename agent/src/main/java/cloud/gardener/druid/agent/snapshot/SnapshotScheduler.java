package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.agent.config.AgentTimings;
import cloud.gardener.druid.agent.config.SnapshotPolicy;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.gc.GarbageCollector;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotChain;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreIdentity;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes snapshots while this member is etcd's leader, on one thread (scheduled and on-demand
 * snapshots never overlap). On becoming leader it continues the store's history: a full
 * snapshot when the store has none or the schedule was missed, and deltas from the revision
 * after the newest snapshot. Deltas are written every period or when the buffer passes the
 * memory limit; garbage collection runs every collection period.
 *
 * <p>Before it writes, it checks the store's identity marker ({@link StoreIdentity}): it
 * claims an empty prefix for its Etcd and never writes into a prefix another Etcd's marker
 * names (a failed attempt to become the writer is retried after {@link #WRITER_RETRY}).
 *
 * <p>A gap in the store's newest chain (a delta missing or deleted, {@link SnapshotChain}),
 * seen when it starts writing and at each garbage collection, is answered with a full
 * snapshot: a restore would otherwise stop before the gap. So is a change of etcd's users,
 * roles or passwords, which only a full snapshot carries ({@link AuthStoreTracker}).
 */
public final class SnapshotScheduler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotScheduler.class);

  /** Longer than any snapshot may take (the snapshot timeout is 15 minutes). */
  private static final Duration ABANDONED_AFTER = Duration.ofHours(1);
  static final Duration WRITER_RETRY = Duration.ofSeconds(10);

  private final MemberClient etcd;
  private final SnapshotStore store;
  private final SnapshotPolicy policy;
  private final Clock clock;
  private final SnapshotListener listener;
  private final StoreIdentity self;
  private final FullSnapshotter fullSnapshotter;
  private final SnapshotProgressMeter progress;
  private final AuthStoreTracker authStore;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "snapshots"));
  private DeltaSnapshotter deltas;
  private Instant nextFull = Instant.MAX;
  private Instant nextDelta = Instant.MAX;
  private Instant nextGc = Instant.MIN;
  private Instant nextAuthCheck = Instant.MIN;
  private Instant writerRetryAt = Instant.MIN;
  private final AgentTimings timings;
  private Instant nextLeaderCheck = Instant.MIN;
  private boolean leading;

  public SnapshotScheduler(MemberClient etcd, SnapshotStore store, SnapshotPolicy policy,
      Clock clock, Duration snapshotTimeout, SnapshotListener listener, StoreIdentity self) {
    this(etcd, store, policy, clock, new AgentTimings(snapshotTimeout,
        AgentTimings.DEFAULTS.defragTimeout(), AgentTimings.DEFAULTS.leaseRenewal(),
        AgentTimings.DEFAULTS.leaderCheck(), AgentTimings.DEFAULTS.leaderCheckTimeout()),
        listener, self);
  }

  /**
   * @param timings the snapshot timeout, and how often and how patiently leadership is asked
   */
  public SnapshotScheduler(MemberClient etcd, SnapshotStore store, SnapshotPolicy policy,
      Clock clock, AgentTimings timings, SnapshotListener listener, StoreIdentity self) {
    this.timings = timings;
    this.etcd = etcd;
    this.self = self;
    this.store = store;
    this.policy = policy;
    this.clock = clock;
    this.listener = listener;
    this.progress = new SnapshotProgressMeter(clock);
    this.fullSnapshotter = new FullSnapshotter(etcd, store, policy.compression(), clock,
        timings.snapshotTimeout(), progress);
    this.authStore = new AuthStoreTracker(etcd::authRevision, store);
  }

  public void start() {
    executor.scheduleWithFixedDelay(this::tick, 0, 1, TimeUnit.SECONDS);
  }

  private void tick() {
    try {
      if (!isLeader()) {
        stopDeltas();
        return;
      }
      if (deltas == null) {
        if (clock.instant().isBefore(writerRetryAt)) {
          return;
        }
        writerRetryAt = clock.instant().plus(WRITER_RETRY);
        becomeWriter();
        writerRetryAt = Instant.MIN;
      } else if (deltas.failure().isPresent()) {
        LOG.warn("the delta watch failed ({}); taking a full snapshot",
            deltas.failure().get().getMessage());
        takeFullAndRestartDeltas(false);
      }
      Instant now = clock.instant();
      if (!now.isBefore(nextFull)) {
        takeFullAndRestartDeltas(false);
      } else if (!now.isBefore(nextDelta)) {
        flushDeltas();
      }
      if (!now.isBefore(nextGc)) {
        collectGarbage();
      }
      if (deltas != null && !now.isBefore(nextAuthCheck)) {
        checkAuthStore(now);
      }
      if (deltas != null && deltas.bufferedBytes() > 0) {
        listener.eventsBuffered();
      }
    } catch (Exception e) {
      LOG.warn("snapshot cycle failed: {}", e.getMessage());
    }
  }

  /**
   * Whether this member leads, asked at most every {@code leaderCheck}
   * ({@code spec.backup.leaderElection.reelectionPeriod}) with
   * {@code leaderCheckTimeout} ({@code etcdConnectionTimeout}); no answer: not leading.
   */
  private boolean isLeader() {
    Instant now = clock.instant();
    if (now.isBefore(nextLeaderCheck)) {
      return leading;
    }
    nextLeaderCheck = now.plus(timings.leaderCheck());
    try {
      leading = etcd.leads(timings.leaderCheckTimeout());
    } catch (EtcdException e) {
      leading = false;
    }
    return leading;
  }

  private void becomeWriter() throws IOException, EtcdException {
    ensureOwnership();
    List<Snapshot> existing = store.list();
    Optional<Snapshot> lastFull = existing.stream().filter(Snapshot::isFull)
        .max(Snapshot.ORDER);
    Instant now = clock.instant();
    boolean gap = answeredGap(existing);
    if (gap || lastFull.isEmpty() || !now.isBefore(nextFullAfter(lastFull.get().createdOn()))) {
      takeFullAndRestartDeltas(false);
      return;
    }
    authStore.resume(lastFull.get());
    listener.resumed(lastFull.get(), existing.stream()
        .filter(s -> !s.isFull() && s.startRevision() > lastFull.get().endRevision())
        .sorted(Snapshot.ORDER).toList());
    long last = existing.stream().mapToLong(Snapshot::endRevision).max().orElse(0);
    long current = etcd.revision();
    if (current < last) {
      // behind the store (a restore whose replay took fewer revisions than the deltas, or a
      // data directory older than the backups): revisions after `current` would be written
      // with other content than the store's, so the history restarts with a full snapshot
      LOG.info("etcd is at revision {}, behind the store's {}: taking a full snapshot",
          current, last);
      takeFullAndRestartDeltas(false);
      return;
    }
    startDeltas(last + 1);
    nextFull = nextFullAfter(lastFull.get().createdOn());
    LOG.info("this member leads: deltas from revision {}, next full snapshot at {}", last + 1,
        nextFull);
  }

  /**
   * A full snapshot when etcd's auth store changed since the newest one: deltas do not carry
   * it ({@link AuthStoreTracker}).
   */
  private void checkAuthStore(Instant now) throws IOException, EtcdException {
    nextAuthCheck = now.plus(policy.deltaPeriod());
    Optional<String> why = authStore.fullSnapshotDue();
    if (why.isPresent()) {
      LOG.info("{}: taking a full snapshot, which carries them (delta snapshots do not)",
          why.get());
      takeFullAndRestartDeltas(false);
    }
  }

  /** Claims an empty prefix; refuses one whose marker names another Etcd. */
  private void ensureOwnership() throws IOException {
    Optional<StoreIdentity> marker = store.readIdentity();
    StoreIdentity.Owner owner = self.ownerOf(marker);
    if (owner == StoreIdentity.Owner.OTHER) {
      throw new IOException("not writing snapshots: "
          + self.foreignStoreMessage(store, marker.get()));
    }
    if (owner == StoreIdentity.Owner.NOBODY && store.list().isEmpty()) {
      store.writeIdentity(self);
      LOG.info("the empty store {} now names Etcd {} ({})", store.location(), self.describe(),
          StoreIdentity.OBJECT_NAME);
    }
  }

  /** Takes a full snapshot and tells the listener its outcome and duration. */
  private Snapshot takeFull(boolean isFinal) throws IOException, EtcdException {
    long started = System.nanoTime();
    Snapshot full;
    OptionalLong authRevision;
    try {
      ensureOwnership();
      authRevision = authStore.current();
      full = fullSnapshotter.take(isFinal);
    } catch (IOException | EtcdException | RuntimeException e) {
      listener.timed(Snapshot.Kind.FULL, false, since(started));
      listener.failed(Snapshot.Kind.FULL, e);
      throw e;
    }
    authStore.written(full, authRevision);
    listener.timed(Snapshot.Kind.FULL, true, since(started));
    listener.written(full);
    return full;
  }

  private static Duration since(long startedNanos) {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  private Instant nextFullAfter(Instant last) {
    return policy.fullSchedule().nextAfter(last.atZone(ZoneOffset.UTC)).toInstant();
  }

  private Snapshot takeFullAndRestartDeltas(boolean isFinal) throws IOException, EtcdException {
    if (deltas != null && deltas.failure().isEmpty()) {
      flushDeltas();
    }
    Snapshot full = takeFull(isFinal);
    nextFull = nextFullAfter(full.createdOn());
    stopDeltas();
    startDeltas(full.endRevision() + 1);
    return full;
  }

  private void startDeltas(long fromRevision) {
    deltas = new DeltaSnapshotter(etcd, store, policy.compression(), clock,
        policy.deltaMemoryLimitBytes(), fromRevision, () -> executor.execute(this::flushQuietly),
        progress);
    nextDelta = clock.instant().plus(policy.deltaPeriod());
  }

  private void stopDeltas() {
    if (deltas != null) {
      deltas.close();
      deltas = null;
      nextDelta = Instant.MAX;
      nextFull = Instant.MAX;
    }
  }

  private void flushQuietly() {
    try {
      if (deltas != null) {
        flushDeltas();
      }
    } catch (IOException e) {
      LOG.warn("delta snapshot failed: {}", e.getMessage());
    }
  }

  private Optional<Snapshot> flushDeltas() throws IOException {
    nextDelta = clock.instant().plus(policy.deltaPeriod());
    long started = System.nanoTime();
    try {
      Optional<Snapshot> delta = deltas.flush();
      if (delta.isPresent()) {
        listener.timed(Snapshot.Kind.INCR, true, since(started));
        listener.written(delta.get());
      }
      return delta;
    } catch (IOException | RuntimeException e) {
      listener.timed(Snapshot.Kind.INCR, false, since(started));
      listener.failed(Snapshot.Kind.INCR, e);
      throw e;
    }
  }

  /**
   * Whether the newest chain in {@code listed} has a gap (a delta missing or deleted): the
   * listener is told, and the caller takes a full snapshot, so that the store restores
   * completely again from then on.
   */
  private boolean answeredGap(List<Snapshot> listed) {
    Optional<SnapshotChain.Gap> gap = SnapshotChain.of(listed).flatMap(SnapshotChain::gap);
    gap.ifPresent(g -> {
      LOG.warn("the store's delta chain has a gap: {}; taking a full snapshot", g.describe());
      listener.chainGap(g);
    });
    return gap.isPresent();
  }

  private void collectGarbage() throws IOException, EtcdException {
    nextGc = clock.instant().plus(policy.gcPeriod());
    List<Snapshot> listed = store.list();
    if (deltas != null && answeredGap(listed)) {
      takeFullAndRestartDeltas(false);
      listed = store.list();
    }
    List<Snapshot> doomed = GarbageCollector.toDelete(listed, policy.gcPolicy(),
        policy.maxBackups(), policy.deltaRetention(), clock.instant());
    for (Snapshot snapshot : doomed) {
      try {
        store.delete(snapshot);
        listener.collected(snapshot, null);
      } catch (IOException | RuntimeException e) {
        listener.collected(snapshot, e);
        throw e;
      }
    }
    int abandoned = store.deleteAbandonedUploads(clock.instant().minus(ABANDONED_AFTER));
    listener.abandonedUploadsCollected(abandoned);
    if (!doomed.isEmpty() || abandoned > 0) {
      LOG.info("garbage collection deleted {} snapshots and {} abandoned uploads",
          doomed.size(), abandoned);
    }
  }

  /** How far the snapshot being written (or the last one) is. */
  public SnapshotProgressMeter progress() {
    return progress;
  }

  /** A full snapshot now (any member may take one; {@code isFinal} before hibernation). */
  public Snapshot fullNow(boolean isFinal) throws Exception {
    return onSnapshotThread(() -> {
      if (deltas != null) {
        return takeFullAndRestartDeltas(isFinal);
      }
      return takeFull(isFinal);
    });
  }

  /** Writes the buffered deltas now; only the leader's agent keeps a delta buffer. */
  public Optional<Snapshot> deltaNow() throws Exception {
    return onSnapshotThread(() -> {
      if (deltas == null) {
        throw new IllegalStateException(
            "this member is not the leader; delta snapshots are taken by the leader's agent");
      }
      return flushDeltas();
    });
  }

  private <T> T onSnapshotThread(Callable<T> task) throws Exception {
    try {
      return executor.submit(task).get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (deltas != null) {
      deltas.close();
    }
  }
}
