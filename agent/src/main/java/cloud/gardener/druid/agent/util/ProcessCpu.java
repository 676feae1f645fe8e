package cloud.gardener.druid.agent.util;

import java.time.Duration;

/** The CPU time a process has used, for log lines that say where a step's time went. */
public final class ProcessCpu {

  private ProcessCpu() {
  }

  /** All threads of {@code process} so far, in milliseconds (-1 if the OS does not say). */
  public static long millis(ProcessHandle process) {
    return process.info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
  }
}
