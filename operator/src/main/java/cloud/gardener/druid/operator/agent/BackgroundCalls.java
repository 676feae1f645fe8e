package cloud.gardener.druid.operator.agent;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The one place where calls to agents that take long run off the reconciler threads: the full
 * snapshots a rollout step waits for (before volumes go, before hibernation) and the
 * EtcdOpsTasks' snapshots and defragmentations. A reconcile starts a call under a key naming
 * what it is for, comes back later and {@link #poll polls} it; the reconciler thread never
 * waits for an agent. One call per key at a time; an ended call is handed out once, then
 * forgotten; one still running at its deadline is interrupted and ends {@link TimedOut}; one
 * nobody polls within {@link #UNCLAIMED} after it ended is dropped (its flow moved on). Calls
 * live in this process only: after an operator restart the next reconcile starts them again,
 * which is safe for every call made here.
 */
public final class BackgroundCalls implements AutoCloseable {

  /** An ended call nobody polled within this time is dropped. */
  public static final Duration UNCLAIMED = Duration.ofHours(1);

  /** A call that may say how far it is: each line it hands to {@code progress} replaces the last. */
  @FunctionalInterface
  public interface Call<T> {
    T run(Consumer<String> progress) throws Exception;
  }

  /** How a call ended. */
  public sealed interface Ended<T> {
  }

  /** The call returned {@code value}. */
  public record Returned<T>(T value) implements Ended<T> {
  }

  /** The call threw {@code failure}. */
  public record Threw<T>(Throwable failure) implements Ended<T> {
  }

  /** The call was still running at {@code deadline} and was interrupted. */
  public record TimedOut<T>(Instant deadline) implements Ended<T> {
  }

  private record Run(FutureTask<Object> future, Instant deadline,
      AtomicReference<String> progress, AtomicReference<Instant> endedAt) {
  }

  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final Executor executor;
  private final Clock clock;

  public BackgroundCalls(Executor executor, Clock clock) {
    this.executor = executor;
    this.clock = clock;
  }

  /** Calls on up to {@code threads} daemon threads named {@code name}. */
  public static BackgroundCalls onThreads(int threads, String name, Clock clock) {
    return new BackgroundCalls(Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    }), clock);
  }

  /**
   * Starts {@code call} under {@code key} unless a call runs or waits to be polled there.
   * {@code onChange} runs on the call's thread when it ends and each time it reports a
   * different line of progress.
   */
  public void start(String key, Call<?> call, Instant deadline, Runnable onChange) {
    dropUnclaimed();
    AtomicReference<String> progress = new AtomicReference<>();
    AtomicReference<Instant> endedAt = new AtomicReference<>();
    Consumer<String> sink = line -> {
      if (!line.equals(progress.getAndSet(line))) {
        onChange.run();
      }
    };
    FutureTask<Object> future = new FutureTask<>(() -> call.run(sink)) {
      @Override
      protected void done() {
        endedAt.set(clock.instant());
        onChange.run();
      }
    };
    if (runs.putIfAbsent(key, new Run(future, deadline, progress, endedAt)) == null) {
      executor.execute(future);
    }
  }

  /** Whether a call runs or waits to be polled under {@code key}. */
  public boolean running(String key) {
    return runs.containsKey(key);
  }

  /**
   * How the call under {@code key} ended, once it ended or passed its deadline (then it is
   * interrupted); empty while it runs or when none is there. An ended call is forgotten.
   */
  @SuppressWarnings("unchecked")
  public <T> Optional<Ended<T>> poll(String key) {
    Run run = runs.get(key);
    if (run == null) {
      return Optional.empty();
    }
    if (!run.future().isDone()) {
      if (clock.instant().isBefore(run.deadline())) {
        return Optional.empty();
      }
      run.future().cancel(true);
    }
    runs.remove(key, run);
    return Optional.of((Ended<T>) endOf(run));
  }

  /** The last line of progress the call under {@code key} reported; empty when none. */
  public Optional<String> progress(String key) {
    Run run = runs.get(key);
    return run == null ? Optional.empty() : Optional.ofNullable(run.progress().get());
  }

  /** Time until the deadline of the call under {@code key} (zero when none is there). */
  public Duration untilDeadline(String key) {
    Run run = runs.get(key);
    return run == null ? Duration.ZERO : Duration.between(clock.instant(), run.deadline());
  }

  /** Interrupts and forgets the call under {@code key}, if any. */
  public void cancel(String key) {
    Run run = runs.remove(key);
    if (run != null) {
      run.future().cancel(true);
    }
  }

  /** Calls not handed out yet (running, or ended and not dropped). */
  public int pending() {
    dropUnclaimed();
    return runs.size();
  }

  private void dropUnclaimed() {
    Instant now = clock.instant();
    runs.values().removeIf(r -> r.endedAt().get() != null
        && Duration.between(r.endedAt().get(), now).compareTo(UNCLAIMED) > 0);
  }

  private static Ended<Object> endOf(Run run) {
    try {
      return new Returned<>(run.future().get());
    } catch (CancellationException e) {
      return new TimedOut<>(run.deadline());
    } catch (ExecutionException e) {
      return new Threw<>(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Threw<>(e);
    }
  }

  @Override
  public void close() {
    if (executor instanceof ExecutorService service) {
      service.shutdownNow();
    }
  }
}
