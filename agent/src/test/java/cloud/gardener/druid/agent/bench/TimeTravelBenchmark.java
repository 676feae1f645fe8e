package cloud.gardener.druid.agent.bench;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.pitr.PointInTime;
import cloud.gardener.druid.agent.pitr.PointInTimeRestore;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.testing.EtcdBinaries;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * Not a test: a point-in-time restore to a revision in the middle of the deltas beside the full
 * restore of the whole chain and {@code etcdutl snapshot restore} of the full snapshot alone:
 * see docs/benchmarks.md ("Time travel") for the command line.
 * Arguments: database size in MiB (default 256), delta events (default 20000).
 */
public final class TimeTravelBenchmark {

  private TimeTravelBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int sizeMib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
    int deltaEvents = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    Path work = Files.createTempDirectory("druid-pitr-bench");
    try {
      run(work, sizeMib, deltaEvents);
    } finally {
      Files2.deleteTree(work);
    }
  }

  private static void run(Path work, int sizeMib, int deltaEvents) throws Exception {
    LocalSnapshotStore store = new LocalSnapshotStore(work.resolve("store"), "bench");
    Snapshot full;
    try (LocalEtcd etcd = new LocalEtcd("bench-0", work.resolve("etcd"),
        work.resolve("etcd.log"))) {
      long t0 = System.nanoTime();
      SnapshotBenchmark.fill(etcd.client().client().getKVClient(), sizeMib);
      System.out.printf("filled %d MiB in %.1f s%n", sizeMib, seconds(t0));
      full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.NONE,
          Clock.systemUTC(), Duration.ofMinutes(30)).take(false);
      SnapshotBenchmark.writeDeltas(etcd, Map.of(store, SnapshotCompression.NONE),
          full.endRevision() + 1, deltaEvents);
    }
    long last = store.list().stream().filter(s -> !s.isFull())
        .max(Comparator.comparingLong(Snapshot::endRevision)).orElseThrow().endRevision();
    long middle = (full.endRevision() + last) / 2;
    System.out.printf("full snapshot at revision %d, deltas up to %d (%d deltas); restoring "
        + "revision %d%n", full.endRevision(), last, store.list().size() - 1, middle);
    long t0 = System.nanoTime();
    EtcdutlBaseline.restoreMillis(EtcdBinaries.dir(), store.localFile(full).orElseThrow(),
        work.resolve("etcdutl-restored"));
    System.out.printf("etcdutl snapshot restore of the full snapshot: %.1f s%n", seconds(t0));
    Files2.deleteTree(work.resolve("etcdutl-restored"));

    t0 = System.nanoTime();
    new Restorer(store, TestConfigs.tuning(), member("bench", work.resolve("full-restore")))
        .restore(staged -> { }).orElseThrow();
    System.out.printf("full restore (the newest full snapshot + every delta): %.1f s%n",
        seconds(t0));
    Files2.deleteTree(work.resolve("full-restore"));

    LocalSnapshotStore target = new LocalSnapshotStore(work.resolve("store"), "bench-new");
    t0 = System.nanoTime();
    PointInTimeRestore.Result r = new PointInTimeRestore(store, target,
        new StoreIdentity("default", "bench-new"), TestConfigs.tuning(),
        member("bench", work.resolve("pitr")), Clock.systemUTC())
        .run(new PointInTime.AtRevision(middle), 0, 1_000_000);
    System.out.printf("restore to revision %d: %.1f s in all (its restore %.1f s, then "
        + "defragment and upload as %s)%n", middle, seconds(t0), r.restoreMillis() / 1000.0,
        r.written());
  }

  private static MemberConfig member(String etcd, Path dir) throws java.io.IOException {
    return new MemberConfig(etcd + "-restore", etcd, "default", "127.0.0.1", "127.0.0.1",
        LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), Map.of(), "bench", dir,
        Optional.empty(), Optional.empty());
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }
}
