package cloud.gardener.druid.agent.pitr;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.pitr.UndeletePlan.KeyAction;
import cloud.gardener.druid.agent.pitr.UndeletePlan.LiveKey;
import cloud.gardener.druid.agent.restore.RestoreException;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.restore.TemporaryEtcd;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.api.pitr.TimeTravelReport;
import cloud.gardener.druid.api.pitr.TimeTravelReport.Keys;
import cloud.gardener.druid.api.pitr.TimeTravelReport.Outcome;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the keys under a prefix back into the live cluster as they were at revision R (our
 * extension): the store's chain up to exactly R is restored into a scratch directory and read
 * in a temporary etcd on loopback; each key absent in the live cluster is written back in a
 * transaction of its own guarded by "the key does not exist", so a key changed or re-created
 * since its deletion is reported and never overwritten ({@link UndeletePlan}). Ordinary
 * client writes: no member is stopped or restarted. A dry run writes nothing.
 */
public final class Undeleter {

  private static final Logger LOG = LoggerFactory.getLogger(Undeleter.class);
  /** Guarded transactions in flight at once. */
  static final int IN_FLIGHT = 32;
  private static final long TXN_TIMEOUT_SECONDS = 30;

  /** What to bring back, and how. */
  public record Request(String prefix, PointInTime at, boolean dryRun,
      boolean removeCreatedAfter) {
    public Request {
      if (prefix == null || prefix.isEmpty()) {
        throw new IllegalArgumentException("the prefix must not be empty: an undelete "
            + "brings back one prefix, not the whole key space");
      }
    }
  }

  private final SnapshotStore store;
  private final EtcdTuning etcd;
  private final MemberConfig scratch;
  private final Client live;
  private final Clock clock;
  private final Consumer<String> log;

  /**
   * @param scratch the temporary member: the Etcd's name and a scratch directory
   * @param log receives one line per key acted on (the pod's log lists every key)
   */
  public Undeleter(SnapshotStore store, EtcdTuning etcd, MemberConfig scratch, Client live,
      Clock clock, Consumer<String> log) {
    this.store = store;
    this.etcd = etcd;
    this.scratch = scratch;
    this.live = live;
    this.clock = clock;
    this.log = log;
  }

  public TimeTravelReport run(Request request)
      throws PitrException, IOException, RestoreException {
    RetainedHistory history = RetainedHistory.of(store.list());
    long revision = new DeltaHistory(store, history).revisionOf(request.at());
    Map<String, byte[]> atRevision = keysAt(history, revision, request.prefix());
    Map<String, LiveKey> now = PrefixRead.read(live, request.prefix());
    List<KeyAction> actions = UndeletePlan.of(atRevision, now, request.removeCreatedAfter());
    List<KeyAction> done = request.dryRun() ? actions : carryOut(actions);
    return report(request, revision, done);
  }

  private Map<String, byte[]> keysAt(RetainedHistory history, long revision, String prefix)
      throws PitrException, IOException, RestoreException {
    Path dataDir = scratch.dataDir().toAbsolutePath();
    Path etcdLog = dataDir.resolveSibling(dataDir.getFileName() + ".log");
    Files2.deleteTree(dataDir);
    try {
      new Restorer(store, etcd, scratch, new RestoreProgress(clock))
          .restore(history.planAt(revision), staged -> { });
      try (TemporaryEtcd temp = TemporaryEtcd.start(etcd.etcd(), scratch.name(), dataDir,
          etcdLog, scratch.etcdCredentials())) {
        Map<String, byte[]> keys = new LinkedHashMap<>();
        PrefixRead.read(temp.client().client(), prefix)
            .forEach((key, kv) -> keys.put(key, kv.value()));
        LOG.info("{} keys under the prefix at revision {}", keys.size(), revision);
        return keys;
      }
    } finally {
      Files2.deleteTree(dataDir);
      Files2.deleteTree(etcdLog);
    }
  }

  /** Writes and removes as planned; a guard that fails turns the action into a skip. */
  private List<KeyAction> carryOut(List<KeyAction> planned) throws PitrException {
    List<KeyAction> done = new ArrayList<>(planned.size());
    List<CompletableFuture<KeyAction>> window = new ArrayList<>();
    for (KeyAction action : planned) {
      window.add(apply(action));
      if (window.size() >= IN_FLIGHT) {
        drain(window, done);
      }
    }
    drain(window, done);
    return done;
  }

  private CompletableFuture<KeyAction> apply(KeyAction action) {
    return action.accept(new KeyAction.Handler<>() {
      @Override
      public CompletableFuture<KeyAction> write(KeyAction.Write w) {
        ByteSequence key = PrefixRead.bytes(w.key());
        return live.getKVClient().txn()
            .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
            .Then(Op.put(key, ByteSequence.from(w.value()), PutOption.DEFAULT))
            .commit().thenApply(r -> r.isSucceeded() ? w
                : new KeyAction.Skip(w.key(), "created meanwhile"));
      }

      @Override
      public CompletableFuture<KeyAction> remove(KeyAction.Remove r) {
        ByteSequence key = PrefixRead.bytes(r.key());
        return live.getKVClient().txn()
            .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(r.modRevision())))
            .Then(Op.delete(key, DeleteOption.DEFAULT))
            .commit().thenApply((TxnResponse t) -> t.isSucceeded() ? r
                : new KeyAction.Skip(r.key(), "modified meanwhile, not removed"));
      }

      @Override
      public CompletableFuture<KeyAction> skip(KeyAction.Skip s) {
        return CompletableFuture.completedFuture(s);
      }

      @Override
      public CompletableFuture<KeyAction> unchanged(KeyAction.Unchanged u) {
        return CompletableFuture.completedFuture(u);
      }

      @Override
      public CompletableFuture<KeyAction> leaveAlone(KeyAction.LeaveAlone l) {
        return CompletableFuture.completedFuture(l);
      }
    });
  }

  private void drain(List<CompletableFuture<KeyAction>> window, List<KeyAction> done)
      throws PitrException {
    for (CompletableFuture<KeyAction> f : window) {
      try {
        done.add(f.get(TXN_TIMEOUT_SECONDS, TimeUnit.SECONDS));
      } catch (ExecutionException | TimeoutException e) {
        throw new PitrException("a guarded write failed after " + done.size() + " keys: "
            + e.getMessage() + " (the keys written so far stay; running the undelete again "
            + "writes the rest and skips them as unchanged)", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new PitrException("interrupted after " + done.size() + " keys", e);
      }
    }
    window.clear();
  }

  private TimeTravelReport report(Request request, long revision, List<KeyAction> actions) {
    UndeleteTally tally = new UndeleteTally(request.dryRun(), revision, log);
    actions.forEach(a -> a.accept(tally));
    String message = (request.dryRun() ? "dry run: would write " : "wrote ")
        + tally.written.size() + " keys under " + request.prefix() + " as they were at revision "
        + revision + "; " + tally.skipped.size() + " skipped, " + tally.unchanged
        + " unchanged, " + tally.createdAfter.size() + " created after revision " + revision
        + (request.removeCreatedAfter() ? " removed" : " left alone");
    return new TimeTravelReport(request.dryRun() ? Outcome.DRY_RUN : Outcome.DONE, revision,
        message, 0, Keys.of(tally.written), Keys.of(tally.skipped), tally.unchanged,
        Keys.of(tally.createdAfter));
  }
}
