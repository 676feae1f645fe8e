package cloud.gardener.druid.agent.copy;

import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.api.CopyProgress;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies backups from one store to another, as upstream's {@code etcdbrctl copy} does, in an
 * order that keeps the target restorable while it runs: backups oldest first, each backup's
 * full snapshot before its deltas, and the deltas (in revision order) only once the full
 * snapshot is in the target. Up to {@code parallelism} objects are copied at a time.
 *
 * <p>Objects already in the target under the same name (a {@code .final} suffix ignored) are
 * skipped; the others are streamed byte for byte and written without the final flag, as
 * upstream writes them. The stores make an object visible only once it is complete, so a copy
 * killed at any point is resumed by running it again.
 */
public final class BackupCopier {

  private static final Logger LOG = LoggerFactory.getLogger(BackupCopier.class);

  private final SnapshotStore source;
  private final SnapshotStore target;
  private final int parallelism;
  private final Clock clock;
  private final Sleeper sleeper;
  private volatile boolean waiting;
  private volatile Run running;

  public BackupCopier(SnapshotStore source, SnapshotStore target, int parallelism) {
    this(source, target, parallelism, Clock.systemUTC(), d -> Thread.sleep(d.toMillis()));
  }

  BackupCopier(SnapshotStore source, SnapshotStore target, int parallelism, Clock clock,
      Sleeper sleeper) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
    }
    this.source = source;
    this.target = target;
    this.parallelism = parallelism;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** What a copy did. */
  public record Result(int copied, long bytes, int skipped) {

    /** The line a copy Job's log ends with. */
    public String summary() {
      return "copied " + copied + " snapshot(s) (" + bytes + " bytes), skipped " + skipped
          + " already in the target";
    }
  }

  /**
   * How far the copy is now ({@link CopyProgress}): waiting for the final snapshot, or
   * snapshots copied of those to copy; empty before either.
   */
  public Optional<String> progress() {
    Run run = running;
    if (run != null) {
      return Optional.of(progress(run.copied.get(), run.toCopy, run.bytes.get()));
    }
    return waiting ? Optional.of(CopyProgress.waiting(source.location())) : Optional.empty();
  }

  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  /**
   * Polls the source every {@code interval} until its newest full snapshot is final (the
   * source's agent took it on shutdown). Returns false when {@code timeout} (zero: none)
   * passed first; upstream then copies anyway, and so does the caller.
   */
  public boolean awaitFinalSnapshot(Duration timeout, Duration interval)
      throws IOException, InterruptedException {
    Instant deadline = timeout.isZero() ? null : clock.instant().plus(timeout);
    LOG.info("{}", CopyProgress.waiting(source.location()));
    waiting = true;
    while (true) {
      Optional<Snapshot> newest = list("source", source).stream().filter(Snapshot::isFull)
          .reduce((a, b) -> b);
      if (newest.isPresent() && newest.get().isFinal()) {
        LOG.info("the newest full snapshot {} is final", newest.get());
        waiting = false;
        return true;
      }
      Instant now = clock.instant();
      if (deadline != null && !now.isBefore(deadline)) {
        LOG.warn("timed out after {} waiting for the final full snapshot in {} (newest full "
            + "snapshot: {}); copying anyway", timeout, source.location(),
            newest.map(Snapshot::toString).orElse("none"));
        waiting = false;
        return false;
      }
      sleeper.sleep(deadline == null ? interval
          : min(interval, Duration.between(now, deadline)));
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** Copies the backups {@code selection} chooses from the source's current listing. */
  public Result copy(BackupSelection selection) throws IOException, InterruptedException {
    List<Snapshot> listing = list("source", source);
    List<Backup> backups = selection.select(listing, clock);
    if (backups.isEmpty()) {
      LOG.info(listing.stream().anyMatch(Snapshot::isFull)
          ? "no backup in {} matches the age and count limits; nothing to copy"
          : "{} holds no backups; nothing to copy", source.location());
      return new Result(0, 0, 0);
    }
    Set<String> present = list("target", target).stream().map(s -> asCopied(s).fileName())
        .collect(Collectors.toSet());
    int selected = backups.stream().mapToInt(b -> b.deltas().size() + 1).sum();
    LOG.info("copying {} backup(s) ({} snapshots) from {} to {}", backups.size(), selected,
        source.location(), target.location());
    int toCopy = (int) backups.stream()
        .flatMap(b -> java.util.stream.Stream.concat(java.util.stream.Stream.of(b.full()),
            b.deltas().stream()))
        .filter(snapshot -> !present.contains(asCopied(snapshot).fileName())).count();
    LOG.info("{}", progress(0, toCopy, 0));
    Run run = new Run(present, toCopy);
    running = run;
    run.start(backups);
    run.await();
    if (!run.failures.isEmpty()) {
      LOG.warn("copied {} snapshot(s) ({} bytes) before the copy failed", run.copied.get(),
          run.bytes.get());
      IOException first = run.failures.remove();
      run.failures.forEach(first::addSuppressed);
      throw first;
    }
    return new Result(run.copied.get(), run.bytes.get(), selected - run.copied.get());
  }

  /** E.g. "3 of 10 snapshots copied (12.0 MiB)", read back by the operator. */
  static String progress(int copied, int of, long bytes) {
    return CopyProgress.copied(copied, of, bytes);
  }

  /** Lists a store, saying which of the two failed. */
  private static List<Snapshot> list(String role, SnapshotStore store) throws IOException {
    try {
      return store.list();
    } catch (IOException e) {
      String message = String.valueOf(e.getMessage());
      throw new IOException("cannot list the " + role + " store: "
          + (message.contains(store.location()) ? "" : store.location() + ": ") + message, e);
    }
  }

  /** The name a snapshot has in the target: upstream drops the final flag when copying. */
  static Snapshot asCopied(Snapshot snapshot) {
    return new Snapshot(snapshot.kind(), snapshot.startRevision(), snapshot.endRevision(),
        snapshot.createdOn(), snapshot.compression(), false);
  }

  /** One copy: its pool, its counters and its failures. */
  private final class Run {

    private final Set<String> present;
    private final int toCopy;
    private final ExecutorService pool = Executors.newFixedThreadPool(parallelism, r -> {
      Thread t = new Thread(r, "copy");
      t.setDaemon(true);
      return t;
    });
    private final List<CompletableFuture<Void>> backups = new ArrayList<>();
    private final AtomicInteger copied = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    private final Queue<IOException> failures = new ConcurrentLinkedQueue<>();

    Run(Set<String> present, int toCopy) {
      this.present = present;
      this.toCopy = toCopy;
    }

    void start(List<Backup> oldestFirst) {
      for (Backup backup : oldestFirst) {
        // the deltas are submitted, in revision order, once the full snapshot is in the target
        backups.add(copyAsync(backup.full()).thenCompose(done -> CompletableFuture.allOf(
            backup.deltas().stream().map(this::copyAsync).toArray(CompletableFuture[]::new))));
      }
    }

    private CompletableFuture<Void> copyAsync(Snapshot snapshot) {
      if (present.contains(asCopied(snapshot).fileName())) {
        return CompletableFuture.completedFuture(null);
      }
      return CompletableFuture.runAsync(() -> copyOrRecord(snapshot), pool);
    }

    /** Waits until no copy runs any more. */
    void await() throws InterruptedException {
      try {
        CompletableFuture.allOf(backups.toArray(CompletableFuture[]::new)).get();
      } catch (ExecutionException e) {
        // recorded in failures by the copy that failed
      } catch (InterruptedException e) {
        pool.shutdownNow();
        throw e;
      } finally {
        pool.shutdown();
      }
    }

    private void copyOrRecord(Snapshot snapshot) {
      if (!failures.isEmpty()) {
        return; // after the first failure, start no more copies
      }
      try {
        long written = copyOne(snapshot);
        String progress = progress(copied.incrementAndGet(), toCopy, bytes.addAndGet(written));
        if (snapshot.isFinal()) {
          LOG.info("copied {} as {} ({} bytes); {}", snapshot, asCopied(snapshot), written,
              progress);
        } else {
          LOG.info("copied {} ({} bytes); {}", snapshot, written, progress);
        }
      } catch (IOException | RuntimeException e) {
        IOException failure = new IOException("cannot copy " + snapshot + " from "
            + source.location() + " to " + target.location() + ": " + e.getMessage(), e);
        failures.add(failure);
        throw new IllegalStateException(failure);
      }
    }

    private long copyOne(Snapshot snapshot) throws IOException {
      Snapshot copy = asCopied(snapshot);
      long[] written = new long[1];
      try (InputStream in = source.open(snapshot)) {
        target.put(copy, out -> written[0] = in.transferTo(out));
      }
      return written[0];
    }
  }
}
