package cloud.gardener.druid.operator.task;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks {@code source} how far a blocking call is, soon after it started ({@link #FIRST}) and
 * then every interval, on its own daemon thread, and hands each answer to {@code sink}, until
 * closed (when the call returned).
 */
final class ProgressPoller implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProgressPoller.class);

  /** The first ask: a call of a few seconds shows progress once. */
  static final Duration FIRST = Duration.ofMillis(500);

  private final Thread thread;

  private ProgressPoller(Thread thread) {
    this.thread = thread;
  }

  static ProgressPoller start(Supplier<Optional<String>> source, Consumer<String> sink,
      Duration every) {
    Thread thread = new Thread(() -> {
      try {
        Duration pause = FIRST.compareTo(every) < 0 ? FIRST : every;
        while (!Thread.currentThread().isInterrupted()) {
          Thread.sleep(pause.toMillis());
          pause = every;
          try {
            source.get().ifPresent(sink);
          } catch (RuntimeException e) {
            LOG.debug("progress not read: {}", e.toString());
          }
        }
      } catch (InterruptedException e) {
        // closed
      }
    }, "ops-task-progress");
    thread.setDaemon(true);
    thread.start();
    return new ProgressPoller(thread);
  }

  @Override
  public void close() {
    thread.interrupt();
  }
}
