package cloud.gardener.druid.agent.bench;

import cloud.gardener.druid.agent.AgentCommand;
import cloud.gardener.druid.agent.AgentMain;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.EtcdBinaries;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.agent.util.ProcessRunner;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.member.MemberJvmOptions;
import cloud.gardener.druid.api.types.Quantities;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * Not a test: the agent as a member runs it, a JVM of its own with the member's JVM options,
 * measured from outside in one run: its resident set at rest (after start, after the first
 * full snapshot, after delta events), its peak during a full snapshot and a restore, cold
 * start to {@code /healthz} beside a plain etcd's own start, a cold restore beside
 * {@code etcdutl snapshot restore} of the full snapshot alone (alternating rounds, medians, CPU
 * times), and stop after SIGTERM beside
 * a plain etcd:
 * <pre>
 * mvn -B -q -o -pl agent test-compile exec:exec -Dexec.executable=java \
 *   -Dexec.classpathScope=test "-Dexec.args=-Ddruid.repoRoot=$PWD -cp %classpath \
 *   cloud.gardener.druid.agent.bench.AgentFootprintBenchmark --size=1024 --deltas=100000"
 * </pre>
 * Options: {@code --size=MiB} of the database (default 1024), {@code --deltas=N} events
 * after the full snapshot (default 100000), {@code --jvm="OPTIONS"} of the agent's JVM
 * (default {@link #memberJvmOptions}), {@code --jar=cli/target/druid.jar} to run the agent
 * from the druid jar as the member image does (default: this class path), {@code --keep} to
 * keep the files, {@code --store=DIR} to run only the restore rounds on the store a run with
 * {@code --keep} left ({@code DIR}: its {@code backups} directory; {@code --size} and
 * {@code --deltas} then only label the figures).
 */
public final class AgentFootprintBenchmark {

  /** The member JVM options the operator sets for the agent's default delta memory limit. */
  static String memberJvmOptions() {
    String limit = new CommandLine(new AgentCommand()).getCommandSpec()
        .findOption("--delta-snapshot-memory-limit").defaultValue();
    long mib = Quantities.bytes(new Quantity(limit))
        .divide(BigDecimal.valueOf(1024 * 1024), RoundingMode.CEILING).longValue();
    return MemberJvmOptions.forDeltaLimitMib(mib);
  }

  private static final String HOST = "127.0.0.1";
  private static final Duration SETTLE = Duration.ofSeconds(10);
  /** Rounds of the cold restore and of etcdutl, alternating. */
  private static final int RESTORE_ROUNDS = 3;
  /** Seconds of one-a-second RSS samples of each rest state, after {@link #SETTLE}. */
  private static final int REST_SAMPLES = 10;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final Path work;
  private final String java;
  private final List<String> jvm;
  private final List<String> agentMain;
  private final List<String[]> rows = new ArrayList<>();

  private AgentFootprintBenchmark(Path work, String java, List<String> jvm,
      List<String> agentMain) {
    this.work = work;
    this.java = java;
    this.jvm = jvm;
    this.agentMain = agentMain;
  }

  public static void main(String[] args) throws Exception {
    int sizeMib = 1024;
    int deltas = 100_000;
    String jvm = memberJvmOptions();
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    boolean keep = false;
    Path keptStore = null;
    // without --jar: this class path (its jars' directories and logback-test.xml differ from
    // the image's one jar and logging, and cost memory the member does not pay)
    List<String> agentMain = List.of("-cp", System.getProperty("java.class.path"),
        AgentMain.class.getName());
    for (String arg : args) {
      if (arg.startsWith("--size=")) {
        sizeMib = Integer.parseInt(arg.substring(7));
      } else if (arg.startsWith("--deltas=")) {
        deltas = Integer.parseInt(arg.substring(9));
      } else if (arg.startsWith("--jvm=")) {
        jvm = arg.substring(6);
      } else if (arg.startsWith("--java=")) {
        java = arg.substring(7);
      } else if (arg.startsWith("--jar=")) {
        agentMain = List.of("-jar", arg.substring(6), "agent");
      } else if (arg.equals("--keep")) {
        keep = true;
      } else if (arg.startsWith("--store=")) {
        keptStore = Path.of(arg.substring(8));
      } else {
        throw new IllegalArgumentException("unknown option " + arg
            + " (--size=MiB --deltas=N --jvm=\"OPTIONS\" --java=JAVA --jar=druid.jar --keep"
            + " --store=DIR)");
      }
    }
    Path work = Files.createTempDirectory("druid-footprint");
    try {
      AgentFootprintBenchmark benchmark = new AgentFootprintBenchmark(work, java,
          List.of(jvm.trim().split("\\s+")), agentMain);
      if (keptStore == null) {
        benchmark.run(sizeMib, deltas);
      } else {
        benchmark.restoreRounds(keptStore, deltas);
        benchmark.print(sizeMib);
      }
    } finally {
      if (keep) {
        System.out.println("kept " + work);
      } else {
        Files2.deleteTree(work);
      }
    }
  }

  private void run(int sizeMib, int deltas) throws Exception {
    Path store = work.resolve("backups");
    long stopMillis;
    long[] plainStart = new long[3];
    for (int i = 0; i < plainStart.length; i++) {
      plainStart[i] = PlainEtcdStart.millis(http, work.resolve("plain-start-" + i),
          work.resolve("plain-start.log"));
    }
    try (AgentProcess agent = start("first", store)) {
      AgentProcess.Timing start = agent.awaitStarted();
      row("cold start: JVM start to the first API answer", start.apiMillis() + " ms", "", "");
      row("cold start: JVM start to /healthz 200 (etcd answers) | plain etcd: exec to /health 200",
          start.healthzMillis() + " ms", Arrays.toString(plainStart) + " ms", "<= 500 ms");
      await(() -> latestFull(agent).isPresent(), Duration.ofMinutes(5));
      pause(SETTLE);
      row("RSS at rest after start (and the initial full snapshot)",
          agent.rss.restingMib(REST_SAMPLES), "", "<= 96 MiB");
      atRest(agent, "start");

      long t0 = System.nanoTime();
      try (MemberClient client = new MemberClient(agent.clientUrl, Optional.empty())) {
        SnapshotBenchmark.fill(client.client().getKVClient(), sizeMib);
      }
      System.out.printf("filled %d MiB in %.1f s (the agent wrote them as deltas)%n", sizeMib,
          seconds(t0));
      long filled;
      try (MemberClient client = new MemberClient(agent.clientUrl, Optional.empty())) {
        filled = client.revision();
      }
      agent.rss.reset();
      t0 = System.nanoTime();
      try {
        HttpResponse<String> full = agent.post(AgentApi.SNAPSHOT_FULL);
        if (full.statusCode() != 200) {
          throw new IllegalStateException("full snapshot failed: " + full.body());
        }
      } catch (IOException e) {
        // the agent's HTTP server drops an answer not written within 30 s; the snapshot goes on
        System.out.println("the snapshot call was dropped (" + e.getMessage()
            + "); waiting for the snapshot in the store");
        await(() -> latestFull(agent).orElse(0L) >= filled, Duration.ofMinutes(30));
      }
      row("full snapshot of " + sizeMib + " MiB (uncompressed, Local store): time",
          String.format("%.1f s", seconds(t0)), "", "not slower");
      row("peak RSS during that full snapshot", agent.rss.peakSinceMib() + " MiB", "",
          "<= 192 MiB");
      pause(SETTLE);
      row("RSS at rest after the full snapshot", agent.rss.restingMib(REST_SAMPLES), "",
          "<= 96 MiB");
      atRest(agent, "full");

      agent.rss.reset();
      long revision = writeEvents(agent.clientUrl, deltas);
      await(() -> latestDeltaEnd(agent) >= revision, Duration.ofMinutes(10));
      row("peak RSS while " + deltas + " delta events were written", agent.rss.peakSinceMib()
          + " MiB", "", "<= 192 MiB");
      pause(SETTLE);
      row("RSS at rest after " + deltas + " delta events", agent.rss.restingMib(REST_SAMPLES),
          "", "<= 96 MiB");
      atRest(agent, "deltas");
      stopMillis = agent.stop();
    }
    long[] plainStop = new long[3];
    for (int i = 0; i < plainStop.length; i++) {
      LocalEtcd etcd = new LocalEtcd("plain", work.resolve("plain-" + i),
          work.resolve("plain-" + i + ".log"));
      etcd.putKeys("/k/", 0, 1_000);
      long t0 = System.nanoTime();
      etcd.close();
      plainStop[i] = millis(t0);
    }
    row("stop after SIGTERM (agent with its etcd | plain etcd)", stopMillis + " ms",
        Arrays.toString(plainStop) + " ms", "<= 1000 ms");

    restoreRounds(store, deltas);
    print(sizeMib);
  }

  /**
   * The cold restore beside {@code etcdutl snapshot restore} of the full snapshot alone,
   * alternating, {@link #RESTORE_ROUNDS} rounds each on the same store (both read the same
   * files, so both find them in the page cache or not alike): medians and every sample.
   */
  private void restoreRounds(Path store, int deltas) throws Exception {
    Path bin = EtcdBinaries.dir();
    Path fullSnapshot;
    try (Stream<Path> files = Files.list(store.resolve("default--etcd-test/v2"))) {
      fullSnapshot = files.filter(f -> f.getFileName().toString().startsWith("Full-"))
          .max(Path::compareTo).orElseThrow();
    }
    long[] etcdutl = new long[RESTORE_ROUNDS];
    long[] restored = new long[RESTORE_ROUNDS];
    long[] peak = new long[RESTORE_ROUNDS];
    CpuTimes[] cpu = new CpuTimes[RESTORE_ROUNDS];
    long[] etcdutlCpu = new long[RESTORE_ROUNDS];
    for (int round = 0; round < RESTORE_ROUNDS; round++) {
      sync();
      long cpu0 = CpuTimes.of(ProcessHandle.current().pid()).childrenMillis();
      etcdutl[round] = EtcdutlBaseline.restoreMillis(bin, fullSnapshot,
          work.resolve("etcdutl-restored"));
      etcdutlCpu[round] = CpuTimes.of(ProcessHandle.current().pid()).childrenMillis() - cpu0;
      sync();
      boolean last = round == RESTORE_ROUNDS - 1;
      try (AgentProcess agent = start("restored-" + round, store)) {
        restored[round] = agent.awaitInitialised();
        cpu[round] = CpuTimes.of(agent.process.pid());
        peak[round] = agent.rss.peakSinceMib();
        System.out.printf("restore round %d: agent %d ms (CPU ms: JVM %d, etcdutl and the"
            + " temporary etcd %d), etcdutl %d ms (CPU %d ms), peak %d MiB%n", round + 1,
            restored[round], cpu[round].selfMillis(), cpu[round].childrenMillis(),
            etcdutl[round], etcdutlCpu[round], peak[round]);
        System.out.println("  busiest threads of the agent JVM (CPU ms): "
            + CpuTimes.busiestThreads(agent.process.pid(), 8));
        if (last) {
          row("cold restore: JVM start to restored data directory (full + " + deltas
              + " deltas) | etcdutl snapshot restore of the full snapshot; medians of "
              + RESTORE_ROUNDS + " alternating rounds", median(restored) + " ms",
              median(etcdutl) + " ms", String.format("%.2fx (<= 2.0x)",
                  (double) median(restored) / median(etcdutl)));
          row("  samples (agent | etcdutl)", Arrays.toString(restored) + " ms",
              Arrays.toString(etcdutl) + " ms", "");
          row("  CPU: agent JVM + its etcdutl and temporary etcd | etcdutl",
              Arrays.toString(cpu) + " ms", Arrays.toString(etcdutlCpu) + " ms", "");
          row("peak RSS during the restore (highest of the rounds)",
              Arrays.stream(peak).max().orElseThrow() + " MiB", Arrays.toString(peak) + " MiB",
              "<= 192 MiB");
          agent.awaitStarted();
          pause(SETTLE);
          row("RSS at rest after the restore", agent.rss.restingMib(REST_SAMPLES), "",
              "<= 96 MiB");
          atRest(agent, "restore");
        }
      }
      if (!last) {
        Files2.deleteTree(work.resolve("restored-" + round));
      }
    }
  }

  private static long median(long[] samples) {
    long[] sorted = samples.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /**
   * Runs the command of {@code -Dbench.atRest} (if set) with the agent's pid and the rest
   * state's name, to look inside the JVM at rest (NMT, smaps) after its RSS was read.
   */
  private static void atRest(AgentProcess agent, String state) throws Exception {
    String command = System.getProperty("bench.atRest");
    if (command != null) {
      ProcessRunner.run(List.of(command, Long.toString(agent.process.pid()), state),
          Duration.ofMinutes(2));
    }
  }

  private AgentProcess start(String name, Path store) throws IOException {
    int clientPort = LoopbackPorts.on(HOST);
    int peerPort = LoopbackPorts.on(HOST);
    int serverPort = LoopbackPorts.on(HOST);
    List<String> args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=http://" + HOST + ":" + peerPort, work.resolve(name + "/new.etcd"));
    args.addAll(AgentArgs.localStore(store));
    // a member's default, as upstream's (the operator compresses only when the Etcd asks)
    args.add("--compress-snapshots=false");
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvm);
    command.addAll(agentMain);
    command.addAll(args);
    Path log = work.resolve(name + ".log");
    long t0 = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    return new AgentProcess(http, process, t0, URI.create("http://" + HOST + ":" + clientPort),
        URI.create("http://" + HOST + ":" + serverPort), log);
  }

  private Optional<Long> latestFull(AgentProcess agent) throws IOException {
    var full = JSON.readTree(agent.get(AgentApi.SNAPSHOT_LATEST).body()).path("fullSnapshot");
    return full.isMissingNode() || full.isNull() ? Optional.empty()
        : Optional.of(full.path("endRevision").asLong());
  }

  private long latestDeltaEnd(AgentProcess agent) throws IOException {
    return JSON.readTree(agent.get(AgentApi.SNAPSHOT_LATEST).body()).path("deltaSnapshots")
        .findValues("endRevision").stream().mapToLong(v -> v.asLong()).max().orElse(0);
  }

  /** Small event-like values, as the kube-apiserver writes them; returns the last revision. */
  private static long writeEvents(URI clientUrl, int events) throws Exception {
    try (MemberClient client = new MemberClient(clientUrl, Optional.empty())) {
      KV kv = client.client().getKVClient();
      List<CompletableFuture<?>> inFlight = new ArrayList<>();
      for (int i = 0; i < events; i++) {
        inFlight.add(kv.put(ByteSequence.from(("/registry/events/" + i).getBytes()),
            ByteSequence.from(("{\"kind\":\"Event\",\"n\":" + i + ",\"pad\":\"0123456789"
                + "0123456789012345678901234567890123456789\"}").getBytes())));
        if (inFlight.size() == 256) {
          CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new))
              .get(1, TimeUnit.MINUTES);
          inFlight.clear();
        }
      }
      CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new))
          .get(1, TimeUnit.MINUTES);
      return client.revision();
    }
  }

  private void row(String what, String agent, String reference, String target) {
    rows.add(new String[] {what, agent, reference, target});
    System.out.printf("%s: %s %s%n", what, agent, reference);
  }

  private void print(int sizeMib) {
    System.out.printf(
        "%nagent: %s%nagent JVM: %s %s%ndatabase %d MiB%n%-100s %-10s %-22s %s%n",
        agentMain.get(0).equals("-jar") ? agentMain.get(1) : "the test class path",
        java, String.join(" ", jvm), sizeMib, "figure", "agent", "reference", "target (issue 18)");
    for (String[] r : rows) {
      System.out.printf("%-100s %-10s %-22s %s%n", (Object[]) r);
    }
  }

  private interface Check {
    boolean ok() throws Exception;
  }

  private static void await(Check check, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!check.ok()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not within " + timeout);
      }
      pause(Duration.ofMillis(100));
    }
  }

  private static void sync() throws Exception {
    ProcessRunner.run(List.of("sync"), Duration.ofMinutes(5));
  }

  static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static long millis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
