package cloud.gardener.druid.agent.util;

import cloud.gardener.druid.api.types.CronSchedule;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs a task at every firing of a cron schedule (UTC) on its own thread. */
public final class CronRunner implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CronRunner.class);

  /** A task that may fail; failures are logged and the next firing runs again. */
  @FunctionalInterface
  public interface Task {
    void run() throws Exception;
  }

  private final ScheduledExecutorService executor;
  private final CronSchedule schedule;
  private final Task task;
  private final String name;

  public CronRunner(String name, CronSchedule schedule, Task task) {
    this.name = name;
    this.schedule = schedule;
    this.task = task;
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, name));
  }

  public void start() {
    scheduleNext();
  }

  private void scheduleNext() {
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    long delay = Duration.between(now, schedule.nextAfter(now)).toMillis();
    executor.schedule(this::runOnce, Math.max(delay, 0), TimeUnit.MILLISECONDS);
  }

  private void runOnce() {
    try {
      task.run();
    } catch (Exception e) {
      LOG.warn("{} failed: {}", name, e.getMessage());
    }
    if (!executor.isShutdown()) {
      scheduleNext();
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
