package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Probe;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a probe is due and what its thresholds make of its results. One deviation from the
 * kubelet, for fast tests: until the probe has succeeded once, it is retried every
 * {@link #FAST_RETRY} instead of every {@code periodSeconds}.
 */
final class ProbeState {

  static final Duration FAST_RETRY = Duration.ofMillis(250);

  private final Probe probe;
  private Instant nextAt;
  private int successes;
  private int failures;
  private boolean everSucceeded;
  private Boolean result;

  ProbeState(Probe probe, Instant containerStart) {
    this.probe = probe;
    this.nextAt = containerStart.plusSeconds(orDefault(probe.getInitialDelaySeconds(), 0));
  }

  Probe probe() {
    return probe;
  }

  boolean due(Instant now) {
    return !now.isBefore(nextAt);
  }

  Duration timeout() {
    return Duration.ofSeconds(orDefault(probe.getTimeoutSeconds(), 1));
  }

  /** Records one result; returns the thresholded outcome (empty while undecided). */
  Optional<Boolean> record(boolean success, Instant now) {
    if (success) {
      successes++;
      failures = 0;
      everSucceeded = true;
      if (successes >= orDefault(probe.getSuccessThreshold(), 1)) {
        result = true;
      }
    } else {
      failures++;
      successes = 0;
      if (failures >= orDefault(probe.getFailureThreshold(), 3)) {
        result = false;
      }
    }
    Duration period = Duration.ofSeconds(orDefault(probe.getPeriodSeconds(), 10));
    nextAt = now.plus(everSucceeded ? period : min(period, FAST_RETRY));
    return Optional.ofNullable(result);
  }

  /** Thresholded result so far: null until decided. */
  Boolean result() {
    return result;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static int orDefault(Integer value, int fallback) {
    return value == null || value <= 0 ? fallback : value;
  }
}
