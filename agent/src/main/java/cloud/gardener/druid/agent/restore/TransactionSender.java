package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.agent.snapshot.DeltaEvent;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Commits batches in order; two are in flight only when they share no key (then their order
 * does not matter), otherwise a batch waits for the ones before it.
 */
final class TransactionSender {

  /** Where transactions go; answers the revision after the transaction. */
  @FunctionalInterface
  interface TxnSink {
    CompletableFuture<Long> commit(List<DeltaEvent> lastEventPerKey);
  }

  /** Transactions in flight at once when their keys are disjoint. */
  static final int MAX_IN_FLIGHT = 2;

  private record InFlight(CompletableFuture<Long> revision, DeltaBatcher.Batch batch) {
  }

  private final TxnSink sink;
  private final Deque<InFlight> inFlight = new ArrayDeque<>();
  private long lastRevision;
  private long transactions;

  TransactionSender(TxnSink sink) {
    this.sink = sink;
  }

  long transactions() {
    return transactions;
  }

  void send(DeltaBatcher.Batch batch) throws RestoreException {
    while (!inFlight.isEmpty()
        && (inFlight.size() >= MAX_IN_FLIGHT || sharesKeys(batch))) {
      awaitOldest();
    }
    transactions++;
    inFlight.add(new InFlight(sink.commit(batch.events()), batch));
  }

  /** Waits for every transaction; returns the database's revision afterwards. */
  long finish() throws RestoreException {
    while (!inFlight.isEmpty()) {
      awaitOldest();
    }
    return lastRevision;
  }

  private boolean sharesKeys(DeltaBatcher.Batch batch) {
    for (InFlight other : inFlight) {
      for (ByteBuffer key : batch.keys()) {
        if (other.batch().keys().contains(key)) {
          return true;
        }
      }
    }
    return false;
  }

  private void awaitOldest() throws RestoreException {
    InFlight oldest = inFlight.peek();
    try {
      lastRevision = Math.max(lastRevision, oldest.revision().get(5, TimeUnit.MINUTES));
      inFlight.remove();
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null
          ? e.getCause() : e;
      throw new RestoreException("cannot replay the events up to " + oldest.batch().source()
          + " into the temporary etcd: " + cause + "; the data directory was left unchanged",
          cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RestoreException("interrupted while replaying " + oldest.batch().source(), e);
    }
  }
}
