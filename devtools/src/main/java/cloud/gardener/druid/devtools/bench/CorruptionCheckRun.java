package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.agent.config.EtcdTuning;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.ClusterState;
import cloud.gardener.druid.agent.etcd.EtcdBinaryVersion;
import cloud.gardener.druid.agent.etcd.EtcdConfigBuilder;
import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * One run of {@code druid bench corruption-check}: per size a single etcd on loopback, filled
 * with the checks off, then restarted with the agent's corruption checks (the first periodic
 * check after {@code checkPeriod}) and once without them, where HashKV alone is timed. The page
 * cache is warm for both restarts (the fill just wrote the file). Start times come from etcd's
 * log, first line to "now serving": the time to the single member's election varies by up to
 * its election timeout and is left out.
 */
final class CorruptionCheckRun {

  private static final String HOST = "127.0.0.61";
  private static final String NAME = "bench-0";
  private static final int IN_FLIGHT = 64;
  private static final int HASHKV_RUNS = 3;

  private final BenchLog log;
  private final String minor;
  private final int valueBytes;
  private final long seed;
  private final Duration checkPeriod;
  private final Path work;
  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(1)).build();
  private final EtcdTuning tuning;

  CorruptionCheckRun(BenchLog log, String minor, int valueBytes, long seed,
      Duration checkPeriod, Path work) {
    this.log = log;
    this.minor = minor;
    this.valueBytes = valueBytes;
    this.seed = seed;
    this.checkPeriod = checkPeriod;
    this.work = work;
    EtcdTuning d = EtcdTuning.defaults(EtcdBuilds.directory(minor));
    this.tuning = new EtcdTuning(d.binDir(), d.quotaBackendBytes(), d.snapshotCount(),
        d.heartbeatIntervalMillis(), d.electionTimeoutMillis(), d.autoCompactionMode(),
        d.autoCompactionRetention(), d.metrics(), d.bboltFreelistType(), checkPeriod);
  }

  /** One size's figures; times in milliseconds. */
  record Figures(int mib, long keys, long dbBytes, double fillSeconds, long readyWithChecks,
      long readyWithout, long initialCheck, long periodicCheck, long hashKv) {

    static final String HEADER = "   MiB     keys  db MiB  fill s  start with checks ms"
        + "  start without ms  initial check ms  periodic check ms  HashKV ms";

    String row() {
      return String.format("%6d %8d %7d %7.1f %21d %17d %17d %18d %10d", mib, keys,
          dbBytes >> 20, fillSeconds, readyWithChecks, readyWithout, initialCheck,
          periodicCheck, hashKv);
    }
  }

  String etcdVersion() {
    return minor + " (" + tuning.binDir().getFileName() + ")";
  }

  List<Figures> measure(List<Integer> sizes) throws Exception {
    List<Figures> figures = new ArrayList<>();
    for (int mib : sizes) {
      figures.add(one(mib));
    }
    return figures;
  }

  private Figures one(int mib) throws Exception {
    Path data = work.resolve(mib + "MiB");
    int client = LoopbackPorts.on(HOST);
    int peer = LoopbackPorts.on(HOST);
    URI peerUrl = URI.create("http://" + HOST + ":" + peer);
    URI clientUrl = URI.create("http://" + HOST + ":" + client);
    MemberConfig member = new MemberConfig(NAME, "bench", "default", HOST, HOST, client, peer,
        Map.of(NAME, peerUrl), "bench", data.resolve("new.etcd"), Optional.empty(),
        Optional.empty());
    Map<String, String> with = EtcdConfigBuilder.config(member, tuning, Map.of(NAME, peerUrl),
        ClusterState.NEW, EtcdBinaryVersion.minor(tuning.etcd()));
    Map<String, String> without = new LinkedHashMap<>(with);
    EtcdBinaryVersion.corruptionChecks(EtcdBinaryVersion.minor(tuning.etcd()), checkPeriod)
        .keySet().forEach(without::remove);
    long keys = ((long) mib << 20) / valueBytes;
    long fillStart = System.nanoTime();
    long dbBytes;
    try (EtcdProcess etcd = start(without, data.resolve("fill.log"));
        MemberClient c = new MemberClient(clientUrl, Optional.empty())) {
      awaitServing(clientUrl, etcd);
      fill(c.client().getKVClient(), keys);
      dbBytes = c.dbSpace().dbSizeBytes();
    }
    double fillSeconds = BenchLog.secondsSince(fillStart);
    log.say(mib + " MiB: " + keys + " keys of " + valueBytes + " bytes written in "
        + fillSeconds + " s; database " + (dbBytes >> 20) + " MiB");
    Path withLog = data.resolve("with-checks.log");
    try (EtcdProcess etcd = start(with, withLog)) {
      awaitServing(clientUrl, etcd);
      awaitLine(withLog, "finished peer corruption check", checkPeriod.plusMinutes(10));
    }
    EtcdLog etcdLog = EtcdLog.read(withLog);
    long readyWith = etcdLog.millisToServe();
    long initial = etcdLog.millisBetween("starting initial corruption check",
        "initial corruption checking passed");
    long periodic = etcdLog.millisBetween("enabled corruption checking",
        "finished peer corruption check") - checkPeriod.toMillis();
    log.say(mib + " MiB with the checks: serving after " + readyWith + " ms, initial check "
        + initial + " ms, periodic check " + periodic + " ms");
    long hashKv;
    Path withoutLog = data.resolve("without-checks.log");
    try (EtcdProcess etcd = start(without, withoutLog);
        MemberClient c = new MemberClient(clientUrl, Optional.empty())) {
      awaitServing(clientUrl, etcd);
      hashKv = medianHashKv(c);
    }
    long readyWithout = EtcdLog.read(withoutLog).millisToServe();
    log.say(mib + " MiB without the checks: serving after " + readyWithout + " ms, HashKV "
        + hashKv + " ms (median of " + HASHKV_RUNS + ")");
    delete(data.resolve("new.etcd")); // the logs stay
    return new Figures(mib, keys, dbBytes, fillSeconds, readyWith, readyWithout, initial,
        periodic, hashKv);
  }

  private EtcdProcess start(Map<String, String> config, Path logFile) throws IOException {
    Files.createDirectories(logFile.getParent());
    return EtcdProcess.start(tuning.etcd(), EtcdConfigBuilder.flags(config),
        Redirect.appendTo(logFile.toFile()));
  }

  /** Waits until etcd's /health answers 200 (it serves after the initial check). */
  private void awaitServing(URI clientUrl, EtcdProcess etcd) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
    HttpRequest health = HttpRequest.newBuilder(clientUrl.resolve("/health"))
        .timeout(Duration.ofSeconds(2)).GET().build();
    while (System.nanoTime() < deadline) {
      if (!etcd.isAlive()) {
        throw new IllegalStateException("etcd exited; see its log under " + work);
      }
      try {
        if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException("etcd did not serve within 15 minutes");
  }

  /** {@code keys} puts of seeded random values, {@link #IN_FLIGHT} at a time. */
  private void fill(KV kv, long keys) throws Exception {
    Random random = new Random(seed);
    Semaphore window = new Semaphore(IN_FLIGHT);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    for (long i = 0; i < keys && failed.get() == null; i++) {
      byte[] value = new byte[valueBytes];
      random.nextBytes(value);
      window.acquire();
      CompletableFuture<?> put = kv.put(ByteSequence.from(String.format("/bench/%09d", i),
          StandardCharsets.UTF_8), ByteSequence.from(value));
      put.whenComplete((r, e) -> {
        if (e != null) {
          failed.compareAndSet(null, e);
        }
        window.release();
      });
    }
    window.acquire(IN_FLIGHT);
    if (failed.get() != null) {
      throw new IllegalStateException("a put failed: " + failed.get(), failed.get());
    }
  }

  private static long medianHashKv(MemberClient c) throws Exception {
    long[] runs = new long[HASHKV_RUNS];
    for (int i = 0; i < runs.length; i++) {
      long start = System.nanoTime();
      c.hashKv(0);
      runs[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
    java.util.Arrays.sort(runs);
    return runs[runs.length / 2];
  }

  private static void awaitLine(Path file, String text, Duration atMost) throws Exception {
    long deadline = System.nanoTime() + atMost.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.readString(file, StandardCharsets.UTF_8).contains(text)) {
        return;
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("etcd did not log '" + text + "' within " + atMost
        + "; see " + file);
  }

  /** The 1, 5 and 15 minute load averages, as /proc/loadavg says. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
