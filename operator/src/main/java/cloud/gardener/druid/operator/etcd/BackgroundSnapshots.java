package cloud.gardener.druid.operator.etcd;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Full snapshots a rollout step waits for (before volumes are deleted, before hibernation)
 * run here instead of on a reconcile thread: on a large database one takes minutes, and a
 * fleet hibernating many clusters at the same hour would otherwise hold every reconcile
 * thread. A step asks for its snapshot by a key naming what it is for; until the snapshot is
 * taken the step reports it as running and the reconcile comes back later. A result is
 * handed out once; a failure is thrown once, and the next request takes the snapshot again.
 * Requests live in this process only: after an operator restart the step asks again and a
 * new snapshot is taken, which is always safe.
 */
final class BackgroundSnapshots implements AutoCloseable {

  static final int THREADS = 8;

  /** A result nobody asked for again within this time is dropped (the flow moved on). */
  static final Duration UNCLAIMED = Duration.ofHours(1);

  private final Executor pool;
  private final LongSupplier nanoTime;
  private final Map<String, Request> requests = new ConcurrentHashMap<>();

  private record Request(CompletableFuture<Long> revision, AtomicLong finishedAt) {
  }

  BackgroundSnapshots() {
    this(Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "full-snapshot");
      t.setDaemon(true);
      return t;
    }), System::nanoTime);
  }

  BackgroundSnapshots(Executor pool, LongSupplier nanoTime) {
    this.pool = pool;
    this.nanoTime = nanoTime;
  }

  /**
   * The revision of the snapshot requested under {@code key}, starting {@code take} on the
   * first request; empty while it runs, and always on the first request, so that the wait
   * shows in the status however fast the snapshot is. Throws what {@code take} threw, once.
   */
  OptionalLong result(String key, LongSupplier take) {
    dropUnclaimed();
    boolean[] started = {false};
    Request request = requests.computeIfAbsent(key, k -> {
      started[0] = true;
      return start(take);
    });
    if (started[0] || !request.revision().isDone()) {
      return OptionalLong.empty();
    }
    requests.remove(key, request);
    try {
      return OptionalLong.of(request.revision().join());
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  private Request start(LongSupplier take) {
    AtomicLong finishedAt = new AtomicLong(Long.MAX_VALUE);
    CompletableFuture<Long> revision = CompletableFuture.supplyAsync(take::getAsLong, pool);
    revision.whenComplete((r, e) -> finishedAt.set(nanoTime.getAsLong()));
    return new Request(revision, finishedAt);
  }

  private void dropUnclaimed() {
    long now = nanoTime.getAsLong();
    requests.values().removeIf(r -> r.finishedAt().get() != Long.MAX_VALUE
        && now - r.finishedAt().get() > UNCLAIMED.toNanos());
  }

  /** Requests whose result was not handed out yet (running, or finished and not dropped). */
  int pending() {
    dropUnclaimed();
    return requests.size();
  }

  @Override
  public void close() {
    if (pool instanceof ExecutorService service) {
      service.shutdownNow();
    }
  }
}
