package cloud.gardener.druid.agent.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.agent.copy.BackupCopier.Result;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.Snapshot.Compression;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.testenv.time.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupCopierTest {

  private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

  private static final Snapshot ORPHAN = Snapshot.delta(1, 9, T0, Compression.GZIP);
  private static final Snapshot FULL_A =
      Snapshot.full(0, 10, T0.plusSeconds(60), Compression.GZIP, false);
  private static final Snapshot DELTA_A1 =
      Snapshot.delta(11, 20, T0.plusSeconds(80), Compression.GZIP);
  private static final Snapshot DELTA_A2 =
      Snapshot.delta(21, 30, T0.plusSeconds(100), Compression.GZIP);
  private static final Snapshot FULL_B =
      Snapshot.full(0, 30, T0.plusSeconds(3600), Compression.GZIP, true);
  private static final Snapshot DELTA_B1 =
      Snapshot.delta(31, 40, T0.plusSeconds(3620), Compression.GZIP);

  @TempDir
  Path work;
  private LocalSnapshotStore source;
  private LocalSnapshotStore target;
  private final Map<Snapshot, byte[]> contents = new LinkedHashMap<>();

  @BeforeEach
  void setUp() {
    source = new LocalSnapshotStore(work.resolve("source"), "shoot--dev--etcd");
    target = new LocalSnapshotStore(work.resolve("target"), "shoot--dev--etcd");
  }

  private void inSource(Snapshot snapshot, int size) throws IOException {
    byte[] content = new byte[size];
    new Random(snapshot.endRevision() * 31 + size).nextBytes(content);
    source.put(snapshot, out -> out.write(content));
    contents.put(snapshot, content);
  }

  private void twoBackupsAndAnOrphanDelta() throws IOException {
    inSource(ORPHAN, 100);
    inSource(FULL_A, 3 * 1024 * 1024 + 5);
    inSource(DELTA_A1, 1000);
    inSource(DELTA_A2, 0);
    inSource(FULL_B, 200_000);
    inSource(DELTA_B1, 777);
  }

  private static byte[] read(SnapshotStore store, Snapshot snapshot) throws IOException {
    try (InputStream in = store.open(snapshot)) {
      return in.readAllBytes();
    }
  }

  private BackupCopier copier(SnapshotStore from, SnapshotStore to, int parallelism) {
    return new BackupCopier(from, to, parallelism);
  }

  private static Snapshot notFinal(Snapshot s) {
    return BackupCopier.asCopied(s);
  }

  @Test
  void copiesEveryBackupByteForByteWithoutTheFinalFlagAndNoOrphanDeltas() throws Exception {
    twoBackupsAndAnOrphanDelta();

    Result result = copier(source, target, 3).copy(BackupSelection.ALL);

    assertThat(target.list()).containsExactlyInAnyOrder(FULL_A, DELTA_A1, DELTA_A2,
        notFinal(FULL_B), DELTA_B1);
    assertThat(target.directory().resolve(FULL_B.fileName())).doesNotExist();
    assertThat(FULL_B.fileName()).endsWith(".final");
    for (Snapshot s : List.of(FULL_A, DELTA_A1, DELTA_A2, FULL_B, DELTA_B1)) {
      assertThat(read(target, notFinal(s))).as(s.fileName()).isEqualTo(contents.get(s));
    }
    long bytes = 3 * 1024 * 1024 + 5 + 1000 + 200_000 + 777;
    assertThat(result).isEqualTo(new Result(5, bytes, 0));
    assertThat(result.summary())
        .isEqualTo("copied 5 snapshot(s) (" + bytes + " bytes), skipped 0 already in the target");
  }

  @Test
  void skipsWhatTheTargetHoldsEvenWithoutTheFinalSuffixAndASecondRunCopiesNothing()
      throws Exception {
    twoBackupsAndAnOrphanDelta();
    target.put(FULL_A, out -> out.write("already there".getBytes()));
    target.put(notFinal(FULL_B), out -> out.write("copied before".getBytes()));

    Result first = copier(source, target, 2).copy(BackupSelection.ALL);

    assertThat(first).isEqualTo(new Result(3, 1000 + 777, 2));
    assertThat(new String(read(target, FULL_A))).isEqualTo("already there");
    assertThat(new String(read(target, notFinal(FULL_B)))).isEqualTo("copied before");
    assertThat(read(target, DELTA_B1)).isEqualTo(contents.get(DELTA_B1));

    List<Snapshot> afterFirst = target.list();
    Result second = copier(source, target, 2).copy(BackupSelection.ALL);
    assertThat(second).isEqualTo(new Result(0, 0, 5));
    assertThat(target.list()).isEqualTo(afterFirst);
  }

  @Test
  void copiesOnlyTheSelectedBackups() throws Exception {
    twoBackupsAndAnOrphanDelta();

    Result result = copier(source, target, 2).copy(new BackupSelection(-1, 1));

    assertThat(result.copied()).isEqualTo(2);
    assertThat(target.list()).containsExactlyInAnyOrder(notFinal(FULL_B), DELTA_B1);
  }

  @Test
  void aFailingSourceObjectStopsTheCopyKeepsEarlierCopiesAndIsNamed() throws Exception {
    twoBackupsAndAnOrphanDelta();
    FaultyStore faulty = new FaultyStore(source, Set.of(DELTA_A2));

    assertThatThrownBy(() -> copier(faulty, target, 1).copy(BackupSelection.ALL))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot copy " + DELTA_A2.fileName() + " from "
            + source.location() + " to " + target.location() + ": ")
        .hasMessageContaining("disk read error");

    // one at a time: both full snapshots, then the deltas of A until the failure, B1 not
    assertThat(target.list()).containsExactlyInAnyOrder(FULL_A, DELTA_A1, notFinal(FULL_B));
    assertThat(read(target, DELTA_A1)).isEqualTo(contents.get(DELTA_A1));

    // run again once the source reads: the rest is copied, what is there is skipped
    Result resumed = copier(source, target, 1).copy(BackupSelection.ALL);
    assertThat(target.list()).containsExactlyInAnyOrder(FULL_A, DELTA_A1, DELTA_A2,
        notFinal(FULL_B), DELTA_B1);
    assertThat(resumed).isEqualTo(new Result(2, 777, 3));
  }

  @Test
  void aFailingFullSnapshotKeepsItsDeltasOutOfTheTarget() throws Exception {
    twoBackupsAndAnOrphanDelta();
    FaultyStore faulty = new FaultyStore(source, Set.of(FULL_B));

    assertThatThrownBy(() -> copier(faulty, target, 4).copy(BackupSelection.ALL))
        .hasMessageStartingWith("cannot copy " + FULL_B.fileName() + " from ");

    assertThat(target.list()).doesNotContain(notFinal(FULL_B), DELTA_B1);
  }

  @Test
  void deltasStartOnlyOnceTheirFullSnapshotIsInTheTargetAndCopiesAreBounded()
      throws Exception {
    List<Backup> backups = new ArrayList<>();
    long revision = 0;
    for (int b = 0; b < 4; b++) {
      Snapshot full = Snapshot.full(0, revision += 10, T0.plusSeconds(3600L * b),
          Compression.GZIP, false);
      inSource(full, 50_000);
      List<Snapshot> deltas = new ArrayList<>();
      for (int d = 0; d < 4; d++) {
        Snapshot delta = Snapshot.delta(revision + 1, revision += 10,
            T0.plusSeconds(3600L * b + 20L * (d + 1)), Compression.GZIP);
        inSource(delta, 1000);
        deltas.add(delta);
      }
      backups.add(new Backup(full, deltas));
    }
    RecordingStore recording = new RecordingStore(target, Duration.ofMillis(150));

    Result result = copier(source, recording, 3).copy(BackupSelection.ALL);

    assertThat(result.copied()).isEqualTo(20);
    List<String> events = recording.events();
    for (Backup backup : backups) {
      int fullDone = events.indexOf("done " + backup.full());
      for (Snapshot delta : backup.deltas()) {
        assertThat(events.indexOf("start " + delta)).as(delta.fileName())
            .isGreaterThan(fullDone);
      }
    }
    assertThat(recording.maxConcurrent()).isEqualTo(3);
  }

  @Test
  void aSourceWithoutBackupsIsNotAnError() throws Exception {
    inSource(ORPHAN, 10);

    assertThat(copier(source, target, 2).copy(BackupSelection.ALL))
        .isEqualTo(new Result(0, 0, 0));
    assertThat(target.list()).isEmpty();
    assertThat(copier(new LocalSnapshotStore(work.resolve("none"), "p"), target, 2)
        .copy(BackupSelection.ALL)).isEqualTo(new Result(0, 0, 0));
  }

  @Test
  void waitsUntilTheNewestFullSnapshotIsFinalThenCopiesIt() throws Exception {
    inSource(FULL_A, 100);
    Snapshot notYet = Snapshot.full(0, 30, T0.plusSeconds(3600), Compression.GZIP, false);
    inSource(notYet, 100);
    ManualClock clock = new ManualClock(T0.plusSeconds(7200));
    AtomicInteger sleeps = new AtomicInteger();
    List<Optional<String>> progress = new ArrayList<>();
    BackupCopier[] self = new BackupCopier[1];
    BackupCopier copier = new BackupCopier(source, target, 2, clock, d -> {
      assertThat(d).isEqualTo(Duration.ofSeconds(15));
      progress.add(self[0].progress());
      clock.advance(d);
      if (sleeps.incrementAndGet() == 3) {
        unchecked(() -> {
          source.delete(notYet);
          inSource(FULL_B, 100);
        });
      }
    });

    self[0] = copier;
    assertThat(copier.progress()).isEmpty();
    assertThat(copier.awaitFinalSnapshot(Duration.ZERO, Duration.ofSeconds(15))).isTrue();
    assertThat(sleeps).hasValue(3);
    assertThat(progress).first().isEqualTo(Optional.of("waiting for the final full snapshot in "
        + source.location()));
    copier.copy(BackupSelection.ALL);
    assertThat(copier.progress()).hasValueSatisfying(p ->
        assertThat(p).startsWith("2 of 2 snapshots copied ("));
    assertThat(target.list()).containsExactly(FULL_A, notFinal(FULL_B));
    assertThat(read(target, notFinal(FULL_B))).isEqualTo(contents.get(FULL_B));
  }

  @Test
  void aTimeoutWaitingForTheFinalSnapshotCopiesAnyway() throws Exception {
    inSource(FULL_A, 100);
    inSource(DELTA_A1, 100);
    ManualClock clock = new ManualClock(T0.plusSeconds(7200));
    List<Duration> sleeps = new ArrayList<>();
    BackupCopier copier = new BackupCopier(source, target, 2, clock, d -> {
      sleeps.add(d);
      clock.advance(d);
    });

    assertThat(copier.awaitFinalSnapshot(Duration.ofSeconds(40), Duration.ofSeconds(15)))
        .isFalse();
    assertThat(sleeps).containsExactly(Duration.ofSeconds(15), Duration.ofSeconds(15),
        Duration.ofSeconds(10));
    assertThat(copier.copy(BackupSelection.ALL).copied()).isEqualTo(2);
    assertThat(target.list()).containsExactly(FULL_A, DELTA_A1);
  }

  @Test
  void withoutATimeoutTheWaitGoesOnAndAnEmptySourceIsWaitedFor() throws Exception {
    ManualClock clock = new ManualClock(T0.plusSeconds(7200));
    AtomicInteger sleeps = new AtomicInteger();
    BackupCopier copier = new BackupCopier(source, target, 2, clock, d -> {
      clock.advance(Duration.ofDays(1));
      if (sleeps.incrementAndGet() == 50) {
        unchecked(() -> inSource(FULL_B, 10));
      }
    });

    assertThat(copier.awaitFinalSnapshot(Duration.ZERO, Duration.ofSeconds(1))).isTrue();
    assertThat(sleeps).hasValue(50);
  }

  private interface IoAction {
    void run() throws IOException;
  }

  private static void unchecked(IoAction action) {
    try {
      action.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }


  /** Forwards to a store; subclasses change what they test. */
  private static class ForwardingStore implements SnapshotStore {

    final SnapshotStore delegate;

    ForwardingStore(SnapshotStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public List<Snapshot> list() throws IOException {
      return delegate.list();
    }

    @Override
    public void put(Snapshot snapshot, ContentWriter content) throws IOException {
      delegate.put(snapshot, content);
    }

    @Override
    public InputStream open(Snapshot snapshot) throws IOException {
      return delegate.open(snapshot);
    }

    @Override
    public void delete(Snapshot snapshot) throws IOException {
      delegate.delete(snapshot);
    }

    @Override
    public int deleteAbandonedUploads(Instant cutoff) throws IOException {
      return delegate.deleteAbandonedUploads(cutoff);
    }

    @Override
    public Optional<StoreIdentity> readIdentity() throws IOException {
      return delegate.readIdentity();
    }

    @Override
    public void writeIdentity(StoreIdentity identity) throws IOException {
      delegate.writeIdentity(identity);
    }

    @Override
    public String location() {
      return delegate.location();
    }
  }

  /** A source whose given objects fail after their first bytes (or at once when empty). */
  private static final class FaultyStore extends ForwardingStore {

    private final Set<Snapshot> failing;

    FaultyStore(SnapshotStore delegate, Set<Snapshot> failing) {
      super(delegate);
      this.failing = new HashSet<>(failing);
    }

    @Override
    public InputStream open(Snapshot snapshot) throws IOException {
      InputStream in = delegate.open(snapshot);
      if (!failing.contains(snapshot)) {
        return in;
      }
      return new InputStream() {
        private int left = 10;

        @Override
        public int read() throws IOException {
          int b = left-- > 0 ? in.read() : -1;
          if (b < 0) {
            throw new IOException("disk read error");
          }
          return b;
        }

        @Override
        public void close() throws IOException {
          in.close();
        }
      };
    }
  }

  /** A target that records when each write starts and ends, and slows full snapshots down. */
  private static final class RecordingStore extends ForwardingStore {

    private final Duration fullDelay;
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();

    RecordingStore(SnapshotStore delegate, Duration fullDelay) {
      super(delegate);
      this.fullDelay = fullDelay;
    }

    @Override
    public void put(Snapshot snapshot, ContentWriter content) throws IOException {
      events.add("start " + snapshot);
      maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        if (snapshot.isFull()) {
          Thread.sleep(fullDelay.toMillis());
        }
        delegate.put(snapshot, content);
      } catch (InterruptedException e) {
        throw new IOException(e);
      } finally {
        running.decrementAndGet();
        events.add("done " + snapshot);
      }
    }

    List<String> events() {
      return List.copyOf(events);
    }

    int maxConcurrent() {
      return maxRunning.get();
    }
  }

  @Test
  void progressSaysSnapshotsDoneOfAllAndTheBytes() {
    assertThat(BackupCopier.progress(3, 10, 12L << 20))
        .isEqualTo("3 of 10 snapshots copied (12.0 MiB)");
  }
}
