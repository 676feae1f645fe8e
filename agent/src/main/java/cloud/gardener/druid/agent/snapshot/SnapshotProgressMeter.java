package cloud.gardener.druid.agent.snapshot;

import cloud.gardener.druid.api.agent.SnapshotProgress;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How far the snapshot being written (or the last one) is: bytes read from etcd of an
 * estimated total (the database size for a full snapshot, the buffered events for a delta).
 * Written by the snapshot thread, read by the agent API at any time.
 */
public final class SnapshotProgressMeter {

  /** A snapshot's kind as the agent API names it. */
  public enum Kind {
    FULL(SnapshotProgress.FULL), DELTA(SnapshotProgress.DELTA);

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One reading; {@code bytesTotal} is 0 when unknown. */
  public record View(Kind kind, long bytesDone, long bytesTotal, Instant startedAt,
      boolean running) {
  }

  private record Run(Kind kind, long bytesTotal, Instant startedAt) {
  }

  private final Clock clock;
  private final AtomicLong done = new AtomicLong();
  private volatile Run run;
  private volatile boolean running;

  public SnapshotProgressMeter(Clock clock) {
    this.clock = clock;
  }

  /** Starts counting a new snapshot of {@code kind}; {@code bytesTotal} 0 when unknown. */
  public void start(Kind kind, long bytesTotal) {
    done.set(0);
    run = new Run(kind, Math.max(0, bytesTotal), clock.instant());
    running = true;
  }

  public void finish() {
    running = false;
  }

  /** {@code out} counting every byte written through it into this progress. */
  public OutputStream counting(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        out.write(b);
        done.incrementAndGet();
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        done.addAndGet(len);
      }
    };
  }

  /** The snapshot being written, or the last one; empty before the first. */
  public Optional<View> current() {
    Run r = run;
    return r == null ? Optional.empty()
        : Optional.of(new View(r.kind(), done.get(), r.bytesTotal(), r.startedAt(), running));
  }
}
