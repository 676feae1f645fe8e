package cloud.gardener.druid.agent.space;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.api.agent.MemberSpace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples this member's space every {@link #INTERVAL} while etcd runs (one etcd status and one
 * alarm list, a look at the file system and the data directory) and answers the newest
 * {@link MemberSpace} with the rates over the last {@link #WINDOW}. It costs no API request:
 * the operator reads the answer with the member status it asks for anyway. A sample that
 * finds a CORRUPT alarm naming a member no longer in the cluster disarms it
 * ({@link MemberClient#disarmCorruptOfDepartedMembers}).
 */
public final class SpaceSampler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SpaceSampler.class);
  static final Duration INTERVAL = Duration.ofSeconds(5);
  static final Duration WINDOW = Duration.ofMinutes(5);

  private final Supplier<Optional<MemberClient>> etcd;
  private final Path dataDir;
  private final long quotaBytes;
  private final Clock clock;
  private final GrowthWindow window = new GrowthWindow(WINDOW.toMillis());
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "space-sampler");
    t.setDaemon(true);
    return t;
  });
  private volatile MemberSpace latest;
  private volatile long latestAt;

  public SpaceSampler(Supplier<Optional<MemberClient>> etcd, Path dataDir, long quotaBytes,
      Clock clock) {
    this.etcd = etcd;
    this.dataDir = dataDir;
    this.quotaBytes = quotaBytes;
    this.clock = clock;
  }

  public SpaceSampler start() {
    timer.scheduleWithFixedDelay(this::sampleQuietly, 0, INTERVAL.toMillis(),
        TimeUnit.MILLISECONDS);
    return this;
  }

  /** The newest sample with its rates; empty before the first (or while etcd never ran). */
  public Optional<MemberSpace> current() {
    return Optional.ofNullable(latest);
  }

  /**
   * A sample at most {@code maxAge} old, taken now when the last is older, and always taken
   * now while an alarm is raised (another member's agent may have disarmed it): the operator
   * must see a defragmentation, a compaction or a disarmed alarm in its next observation, or
   * it would decide the same step again.
   */
  public synchronized Optional<MemberSpace> fresh(Duration maxAge) {
    MemberSpace last = latest;
    if (latestAt < clock.millis() - maxAge.toMillis()
        || last != null && !last.alarms().isEmpty()) {
      sampleQuietly();
    }
    return current();
  }

  /** The next {@link #fresh} samples anew. */
  public void invalidate() {
    latestAt = 0;
  }

  private synchronized void sampleQuietly() {
    try {
      Optional<MemberClient> client = etcd.get();
      if (client.isPresent()) {
        sample(client.get());
      }
    } catch (EtcdException | RuntimeException e) {
      LOG.debug("space sample: {}", e.toString());
    }
  }

  void sample(MemberClient client) throws EtcdException {
    MemberClient.DbSpace db = client.dbSpace();
    if (!db.corruptElsewhere().isEmpty()) {
      // a replaced member's alarm outlives it and keeps the cluster from accepting writes
      List<String> disarmed = client.disarmCorruptOfDepartedMembers();
      if (!disarmed.isEmpty()) {
        LOG.warn("disarmed the alarms of members no longer in the cluster: {}", disarmed);
      }
    }
    window.add(new GrowthWindow.Sample(clock.millis(), db.revision(), db.dbSizeBytes(),
        db.dbSizeInUseBytes()));
    long capacity = 0;
    long free = 0;
    try {
      FileStore store = Files.getFileStore(dataDir);
      capacity = store.getTotalSpace();
      free = store.getUsableSpace();
    } catch (IOException e) {
      LOG.debug("space sample: file system of {}: {}", dataDir, e.toString());
    }
    latest = new MemberSpace(db.dbSizeBytes(), db.dbSizeInUseBytes(), quotaBytes, capacity,
        free, directoryBytes(dataDir), window.perSecond(GrowthWindow.Sample::revision),
        window.perSecond(GrowthWindow.Sample::dbSizeBytes),
        window.perSecond(GrowthWindow.Sample::inUseBytes), window.spanSeconds(), db.alarms(),
        db.revision(), db.unnamedAlarms());
    latestAt = clock.millis();
  }

  /** The bytes of every regular file under {@code dir}; files that go meanwhile count 0. */
  static long directoryBytes(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.mapToLong(p -> {
        try {
          return Files.isRegularFile(p) ? Files.size(p) : 0;
        } catch (IOException e) {
          return 0;
        }
      }).sum();
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
