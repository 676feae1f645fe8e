package cloud.gardener.druid.agent.restore;

import cloud.gardener.druid.api.ByteSizes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far a restore is, for the agent API's initialisation status and the log: the full
 * snapshot's bytes read of its size in the store, then the deltas replayed of all. Written by
 * the restoring thread, read by the API at any time; logged on each phase change, at its end and
 * at most every {@link #LOG_EVERY} within a phase.
 */
public final class RestoreProgress {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreProgress.class);
  static final Duration LOG_EVERY = Duration.ofSeconds(10);

  /** What the restore does now. */
  public enum Phase { DOWNLOAD, ETCDUTL, DELTAS, DONE }

  /**
   * One reading: {@code done} and {@code total} are bytes while downloading, deltas while
   * replaying; {@code total} 0 when unknown.
   */
  public record View(Phase phase, String snapshot, long done, long total) {

    /** E.g. "restoring: full snapshot Full-...: 120 MiB of 512 MiB read". */
    public String describe() {
      return switch (phase) {
        case DOWNLOAD -> "restoring: full snapshot " + snapshot + ": "
            + ByteSizes.ofTotal(done, total, false) + " read";
        case ETCDUTL -> "restoring: full snapshot " + snapshot + " read, etcdutl rebuilds the"
            + " database";
        case DELTAS -> "restoring: " + done + " of " + total + " delta snapshots replayed";
        case DONE -> "restored up to " + snapshot;
      };
    }
  }

  private final Clock clock;
  private volatile View view;
  private Instant lastLog = Instant.MIN;

  public RestoreProgress(Clock clock) {
    this.clock = clock;
  }

  /** The restore running now, or the last one; empty when none ran since the agent started. */
  public Optional<View> current() {
    return Optional.ofNullable(view);
  }

  void update(Phase phase, String snapshot, long done, long total) {
    View before = view;
    View next = new View(phase, snapshot, done, total);
    view = next;
    Instant now = clock.instant();
    boolean phaseDone = total > 0 && done == total;
    if (before == null || before.phase() != phase || phaseDone
        || !now.isBefore(lastLog.plus(LOG_EVERY))) {
      lastLog = now;
      LOG.info("{}", next.describe());
    }
  }
}
