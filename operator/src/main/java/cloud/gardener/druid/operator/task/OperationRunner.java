package cloud.gardener.druid.operator.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Runs operations off the reconciler threads, one per task at most, and hands their results to
 * the next reconcile. A run still going at its deadline is interrupted and ends as a timeout;
 * the reconciler thread never waits for an agent.
 */
final class OperationRunner implements AutoCloseable {

  /** How a run ended. */
  sealed interface Result {
  }

  record Succeeded(String description) implements Result {
  }

  record Failed(TaskError error) implements Result {
  }

  /** Work that may say how far it is: each line it hands to {@code progress} replaces the last. */
  @FunctionalInterface
  interface Work {
    Result run(Consumer<String> progress) throws Exception;
  }

  private record Run(FutureTask<Result> future, Instant deadline,
      AtomicReference<String> progress) {
  }

  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "ops-task");
    t.setDaemon(true);
    return t;
  });
  private final Clock clock;

  OperationRunner(Clock clock) {
    this.clock = clock;
  }

  boolean running(String key) {
    return runs.containsKey(key);
  }

  /** Starts {@code work} for {@code key}; {@code onDone} runs on the worker when it ends. */
  void start(String key, Callable<Result> work, Instant deadline, Runnable onDone) {
    start(key, progress -> work.call(), deadline, onDone, () -> { });
  }

  /**
   * Starts {@code work} for {@code key}; {@code onDone} runs on the worker when it ends,
   * {@code onProgress} each time the work reports a different line ({@link #progress}).
   */
  void start(String key, Work work, Instant deadline, Runnable onDone, Runnable onProgress) {
    AtomicReference<String> progress = new AtomicReference<>();
    Consumer<String> sink = line -> {
      if (!line.equals(progress.getAndSet(line))) {
        onProgress.run();
      }
    };
    FutureTask<Result> future = new FutureTask<>(() -> work.run(sink)) {
      @Override
      protected void done() {
        onDone.run();
      }
    };
    if (runs.putIfAbsent(key, new Run(future, deadline, progress)) == null) {
      executor.execute(future);
    }
  }

  /**
   * The result of the run for {@code key} once it ended or passed its deadline (then it is
   * interrupted); empty while it runs or when none runs. A returned result is forgotten.
   */
  Optional<Result> poll(String key) {
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
    runs.remove(key);
    return Optional.of(resultOf(run));
  }

  /** The last line of progress the run for {@code key} reported; empty when none. */
  Optional<String> progress(String key) {
    Run run = runs.get(key);
    return run == null ? Optional.empty() : Optional.ofNullable(run.progress().get());
  }

  /** Time until the deadline of the run for {@code key} (zero when none runs). */
  Duration untilDeadline(String key) {
    Run run = runs.get(key);
    return run == null ? Duration.ZERO : Duration.between(clock.instant(), run.deadline());
  }

  void cancel(String key) {
    Run run = runs.remove(key);
    if (run != null) {
      run.future().cancel(true);
    }
  }

  private static Result resultOf(Run run) {
    try {
      return run.future().get();
    } catch (CancellationException e) {
      return new Failed(new TaskError(TaskError.TIMEOUT, "the operation did not finish by its"
          + " deadline " + run.deadline() + " and was cancelled"));
    } catch (ExecutionException e) {
      return new Failed(new TaskError(TaskError.EXECUTION,
          "the operation failed unexpectedly: " + e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Failed(new TaskError(TaskError.EXECUTION, "interrupted"));
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
