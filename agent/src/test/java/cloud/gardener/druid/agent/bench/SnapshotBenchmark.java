package cloud.gardener.druid.agent.bench;

import cloud.gardener.druid.agent.config.SnapshotCompression;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.snapshot.DeltaSnapshotter;
import cloud.gardener.druid.agent.snapshot.FullSnapshotter;
import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.testing.EtcdBinaries;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.ProcessRunner;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Not a test: prints the agent's full snapshot and restore next to etcdctl/etcdutl on the
 * same database, and the agent's peak heap. Run with a small heap to prove the streaming:
 * <pre>
 * mvn -B -q -o -pl agent test-compile exec:exec -Dexec.executable=java \
 *   -Dexec.classpathScope=test -Ddruid.repoRoot=$PWD \
 *   -Dexec.args="-Xmx256m -Ddruid.repoRoot=$PWD -cp %classpath \
 *   cloud.gardener.druid.agent.bench.SnapshotBenchmark 1024 100000"
 * </pre>
 * Arguments: database size in MiB (default 1024), delta events (default 100000), and
 * {@code keep} to keep the store, the databases and the logs for a closer look.
 */
public final class SnapshotBenchmark {

  private static final int VALUE_SIZE = 8 * 1024;
  /** Each comparison runs this often, alternating; the first agent round runs cold (JIT). */
  private static final int ROUNDS = 5;
  private static final int FRESH_JVM_ROUNDS = 3;

  private SnapshotBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int sizeMib = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
    int deltaEvents = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    boolean keep = args.length > 2 && args[2].equals("keep");
    Path work = Files.createTempDirectory("druid-bench");
    try {
      run(work, sizeMib, deltaEvents);
    } finally {
      if (keep) {
        System.out.println("kept " + work);
      } else {
        Files2.deleteTree(work);
      }
    }
  }

  private static void run(Path work, int sizeMib, int deltaEvents) throws Exception {
    Path bin = EtcdBinaries.dir();
    // uncompressed (spec.backup.compression.enabled: false) against gzip, upstream's default
    LocalSnapshotStore plain = new LocalSnapshotStore(work.resolve("plain"), "bench");
    LocalSnapshotStore gzip = new LocalSnapshotStore(work.resolve("gzip"), "bench");
    Path saved = work.resolve("etcdctl.db");
    double[] etcdctlSave = new double[ROUNDS];
    double[] agentPlain = new double[ROUNDS];
    double agentGzip;
    HeapSampler heap;
    long dbBytes;
    long gzipBytes;
    try (LocalEtcd etcd = new LocalEtcd("bench-0", work.resolve("etcd"),
        work.resolve("etcd.log"))) {
      long t0 = System.nanoTime();
      fill(etcd.client().client().getKVClient(), sizeMib);
      System.out.printf("filled %d MiB in %.1f s%n", sizeMib, seconds(t0));

      heap = HeapSampler.start();
      Snapshot full = null;
      for (int round = 0; round < ROUNDS; round++) {
        Files.deleteIfExists(saved);
        Files2.deleteTree(plain.directory());
        sync();
        t0 = System.nanoTime();
        ProcessRunner.run(List.of(bin.resolve("etcdctl").toString(),
            "--endpoints=" + etcd.clientUrl(), "snapshot", "save", saved.toString()),
            Duration.ofMinutes(30));
        etcdctlSave[round] = seconds(t0);
        sync();
        t0 = System.nanoTime();
        full = new FullSnapshotter(etcd.client(), plain, SnapshotCompression.NONE,
            Clock.systemUTC(), Duration.ofMinutes(30)).take(false);
        agentPlain[round] = seconds(t0);
      }
      dbBytes = Files.size(saved);
      sync();
      t0 = System.nanoTime();
      Snapshot fullGzip = new FullSnapshotter(etcd.client(), gzip, SnapshotCompression.GZIP,
          Clock.systemUTC(), Duration.ofMinutes(30)).take(false);
      agentGzip = seconds(t0);
      gzipBytes = Files.size(gzip.directory().resolve(fullGzip.fileName()));
      if (fullGzip.endRevision() != full.endRevision()) {
        throw new IllegalStateException("the database changed between the two snapshots");
      }
      writeDeltas(etcd, Map.of(plain, SnapshotCompression.NONE, gzip, SnapshotCompression.GZIP),
          full.endRevision() + 1, deltaEvents);
    }
    double[] etcdutlRestore = new double[ROUNDS];
    double[] restorePlain = new double[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      sync();
      etcdutlRestore[round] = EtcdutlBaseline.restoreMillis(bin, saved,
          work.resolve("etcdutl-restored")) / 1000.0;
      restorePlain[round] = restore(plain, work.resolve("restored-plain"));
    }
    double restoreGzip = restore(gzip, work.resolve("restored-gzip"));
    long maxHeap = heap.maxUsedBytes();
    heap.close();
    double[] freshJvm = new double[FRESH_JVM_ROUNDS];
    long freshJvmMaxHeap = 0;
    for (int round = 0; round < FRESH_JVM_ROUNDS; round++) {
      sync();
      String out = ProcessRunner.run(List.of(
          ProcessHandle.current().info().command().orElse("java"),
          "-Xmx" + mib(Runtime.getRuntime().maxMemory()) + "m",
          "-Ddruid.repoRoot=" + System.getProperty("druid.repoRoot", "."),
          "-cp", System.getProperty("java.class.path"), FreshJvmRestore.class.getName(),
          work.resolve("plain").toString(), work.resolve("restored-fresh").toString()),
          Duration.ofMinutes(30));
      freshJvm[round] = value(out, "restored-after-millis") / 1000.0;
      Files2.deleteTree(work.resolve("restored-fresh"));
      freshJvmMaxHeap = Math.max(freshJvmMaxHeap, value(out, "max-heap-used-bytes"));
    }

    System.out.printf("%n%d rounds, etcd's tool and the agent alternating; ratio of the medians"
        + "%n%-62s %-22s %-22s %6s%n", ROUNDS, "operation", "reference", "agent", "ratio");
    row("full snapshot of " + mib(dbBytes) + " MiB (etcdctl save | agent, uncompressed)",
        etcdctlSave, agentPlain);
    row("full snapshot, gzip level " + SnapshotCompression.GZIP.level() + " on "
        + SnapshotCompression.GZIP.threads() + " threads (" + mib(gzipBytes) + " MiB)",
        etcdctlSave, new double[] {agentGzip});
    row("restore (etcdutl restore | agent full + " + deltaEvents + " deltas)",
        etcdutlRestore, restorePlain);
    row("restore, gzip snapshots", etcdutlRestore, new double[] {restoreGzip});
    row("restore in a fresh agent JVM, as at pod start (from its start)", etcdutlRestore,
        freshJvm);
    System.out.printf("agent heap in use at most (sampled every 10 ms, garbage included):"
        + " %d MiB of max %d MiB; in the fresh JVMs %d MiB%n", mib(maxHeap),
        mib(Runtime.getRuntime().maxMemory()), mib(freshJvmMaxHeap));
  }

  /** Page cache and dirty pages of the previous step must not favour either side. */
  private static void sync() throws Exception {
    ProcessRunner.run(List.of("sync"), Duration.ofMinutes(5));
  }

  private static double restore(LocalSnapshotStore store, Path dataDir) throws Exception {
    sync();
    Restorer restorer = FreshJvmRestore.restorer(store, dataDir);
    long t0 = System.nanoTime();
    restorer.restore(dir -> { });
    double took = seconds(t0);
    Files2.deleteTree(dataDir);
    return took;
  }

  private static void row(String what, double[] reference, double[] agent) {
    System.out.printf("%-62s %-22s %-22s %5.2fx%n", what, seconds(reference), seconds(agent),
        median(agent) / median(reference));
  }

  private static String seconds(double[] values) {
    StringBuilder text = new StringBuilder();
    for (double v : values) {
      text.append(text.length() == 0 ? "" : " ").append(String.format("%.1f", v));
    }
    return text.append(" s").toString();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  }

  /** {@code sizeMib} of 8 KiB values of 64 random symbols (the worst case for deflate). */
  static void fill(KV kv, int sizeMib) throws Exception {
    Random random = new Random(42);
    byte[] alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
        .getBytes();
    long keys = (long) sizeMib * 1024 * 1024 / VALUE_SIZE;
    List<CompletableFuture<?>> inFlight = new ArrayList<>();
    for (long i = 0; i < keys; i++) {
      byte[] value = new byte[VALUE_SIZE];
      for (int j = 0; j < value.length; j++) {
        value[j] = alphabet[random.nextInt(alphabet.length)];
      }
      inFlight.add(kv.put(ByteSequence.from(("/registry/objects/" + i).getBytes()),
          ByteSequence.from(value)));
      if (inFlight.size() == 64) {
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new))
            .get(5, TimeUnit.MINUTES);
        inFlight.clear();
      }
    }
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
  }

  /** The same events as deltas into each store, compressed as that store's full snapshot. */
  static void writeDeltas(LocalEtcd etcd,
      Map<LocalSnapshotStore, SnapshotCompression> stores, long from, int events)
      throws Exception {
    long t0 = System.nanoTime();
    List<DeltaSnapshotter> snapshotters = new ArrayList<>();
    for (Map.Entry<LocalSnapshotStore, SnapshotCompression> store : stores.entrySet()) {
      snapshotters.add(new DeltaSnapshotter(etcd.client(), store.getKey(), store.getValue(),
          Clock.systemUTC(), 10L << 20, from, () -> { }));
    }
    try {
      KV kv = etcd.client().client().getKVClient();
      List<CompletableFuture<?>> inFlight = new ArrayList<>();
      for (int i = 0; i < events; i++) {
        inFlight.add(kv.put(ByteSequence.from(("/registry/events/" + i).getBytes()),
            ByteSequence.from(("{\"kind\":\"Event\",\"n\":" + i + ",\"pad\":\"0123456789"
                + "0123456789012345678901234567890123456789\"}").getBytes())));
        if (inFlight.size() == 256) {
          CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(1,
              TimeUnit.MINUTES);
          inFlight.clear();
          for (DeltaSnapshotter deltas : snapshotters) {
            if (deltas.bufferedBytes() > (10L << 20)) {
              deltas.flush();
            }
          }
        }
      }
      CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(1,
          TimeUnit.MINUTES);
      long target = etcd.client().revision();
      for (DeltaSnapshotter deltas : snapshotters) {
        while (deltas.lastStoredRevision() < target) {
          deltas.flush();
          Thread.sleep(100);
        }
      }
    } finally {
      for (DeltaSnapshotter deltas : snapshotters) {
        deltas.close();
      }
    }
    System.out.printf("wrote %d delta events into %d delta snapshots per store in %.1f s%n",
        events, stores.keySet().iterator().next().list().size() - 1, seconds(t0));
  }

  private static long value(String output, String name) {
    return Long.parseLong(output.lines().filter(l -> l.startsWith(name + " ")).findFirst()
        .orElseThrow(() -> new IllegalStateException("no " + name + " in " + output))
        .substring(name.length() + 1));
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static long mib(long bytes) {
    return bytes / (1024 * 1024);
  }
}
