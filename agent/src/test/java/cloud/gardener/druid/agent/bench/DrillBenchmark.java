package cloud.gardener.druid.agent.bench;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.testing.EtcdBinaries;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.testing.TestConfigs;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.agent.verify.BackupDrill;
import cloud.gardener.druid.agent.verify.BackupHashRecorder;
import cloud.gardener.druid.api.verify.DrillReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * Not a test: a restore drill over a database of a given size and delta events, beside
 * {@code etcdutl snapshot restore} of the same full snapshot, and what recording the hashes
 * costs the leader at snapshot time:
 * <pre>
 * mvn -B -q -o -pl agent test-compile exec:exec -Dexec.executable=java \
 *   -Dexec.classpathScope=test -Ddruid.repoRoot=$PWD \
 *   -Dexec.args="-Xmx256m -Ddruid.repoRoot=$PWD -cp %classpath \
 *   cloud.gardener.druid.agent.bench.DrillBenchmark 256 20000"
 * </pre>
 * Arguments: database size in MiB (default 256), delta events (default 20000).
 */
public final class DrillBenchmark {

  private DrillBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int sizeMib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
    int deltaEvents = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    Path work = Files.createTempDirectory("druid-drill-bench");
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
      BackupHashRecorder recorder = new BackupHashRecorder(etcd.client(), store, "bench-0",
          Clock.systemUTC(), Duration.ZERO);
      full = new FullSnapshotter(etcd.client(), store, SnapshotCompression.NONE,
          Clock.systemUTC(), Duration.ofMinutes(30)).take(false);
      t0 = System.nanoTime();
      recorder.written(full);
      System.out.printf("hashes of the full snapshot recorded (HashKV + key/value SHA-256) in"
          + " %.1f s%n", seconds(t0));
      SnapshotBenchmark.writeDeltas(etcd, Map.of(store, SnapshotCompression.NONE),
          full.endRevision() + 1, deltaEvents);
      Snapshot last = store.list().stream().filter(s -> !s.isFull())
          .max(Comparator.comparingLong(Snapshot::endRevision)).orElseThrow();
      t0 = System.nanoTime();
      recorder.written(last);
      System.out.printf("hash of the last delta recorded in %.1f s%n", seconds(t0));
    }
    long t0 = System.nanoTime();
    EtcdutlBaseline.restoreMillis(EtcdBinaries.dir(), store.localFile(full).orElseThrow(),
        work.resolve("etcdutl-restored"));
    System.out.printf("etcdutl snapshot restore of the full snapshot: %.1f s%n", seconds(t0));
    Files2.deleteTree(work.resolve("etcdutl-restored"));
    MemberConfig scratch = new MemberConfig("bench-drill", "bench", "default", "127.0.0.1",
        "127.0.0.1", LoopbackPorts.on("127.0.0.1"), LoopbackPorts.on("127.0.0.1"), Map.of(),
        "drill", work.resolve("drill"), Optional.empty(), Optional.empty());
    HeapSampler heap = HeapSampler.start();
    t0 = System.nanoTime();
    DrillReport report = new BackupDrill(store, TestConfigs.tuning(), scratch,
        Clock.systemUTC()).run();
    double drill = seconds(t0);
    long maxHeap = heap.maxUsedBytes();
    heap.close();
    System.out.printf("drill: %s in %.1f s (restore of the chain %.1f s); heap in use at most"
        + " %d MiB of max %d MiB%n%s%n", report.outcome(), drill,
        report.restoreMillis() / 1000.0, maxHeap >> 20, Runtime.getRuntime().maxMemory() >> 20,
        report.toJson());
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }
}
