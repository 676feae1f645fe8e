package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.devtools.local.LocalStack;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.node.DruidImage;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One run of the scale benchmark, in phases: start, create and wait, quiet window, spec-change
 * latency, restart with pending changes, quiet window without the operator. Whatever it
 * started is stopped when it returns, fails or the JVM is asked to exit (Ctrl-C).
 */
final class ScaleRun implements AutoCloseable {

  static final String NAMESPACE = "bench";

  /** What to run; see {@link ScaleBenchCommand}'s options. */
  record Settings(FleetPlan plan, List<String> operatorJvm, Path workDir, Duration window,
      Duration settle, int specChanges, boolean background, boolean leaderElection,
      Duration timeout) {
  }

  private final Settings settings;
  private final BenchLog log;
  private LocalCluster cluster;
  private KubernetesClient admin;
  private Fleet fleet;
  private OperatorProcess operator;
  private boolean closed;

  private ScaleRun(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.log = new BenchLog(progress);
  }

  static ScaleReport run(Settings settings, Consumer<String> progress) throws Exception {
    ScaleRun run = new ScaleRun(settings, progress);
    Thread cleanup = new Thread(run::close, "druid-bench-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      return run.phases();
    } finally {
      run.close();
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException exiting) {
        // the hook is running already
      }
    }
  }

  private ScaleReport phases() throws Exception {
    FleetPlan plan = settings.plan();
    log.say("work directory " + settings.workDir() + " (logs in logs/)");
    startCluster();
    long apiServerPid = apiServerPid(cluster.ledger());

    long t = System.nanoTime();
    startOperator();
    log.say("operator ready in " + BenchLog.secondsSince(t) + " s (pid " + operator.pid() + ")");

    long createStart = System.nanoTime();
    fleet.create(plan);
    double createSeconds = BenchLog.secondsSince(createStart);
    log.say("created " + plan.etcds() + " Etcds in " + createSeconds + " s; waiting");
    Fleet.Completion created = fleet.awaitAllComplete(plan.etcds(), settings.timeout());
    Phase afterCreate = Phase.since(createStart, created);
    log.say("reconciled after the first create: hibernated ones in " + afterCreate.hibernated()
        + " s, all in " + afterCreate.all() + " s");

    log.say("settling for " + settings.settle().toSeconds() + " s, then measuring "
        + settings.window().toSeconds() + " s");
    Thread.sleep(settings.settle().toMillis());
    WindowFigures steady = window(apiServerPid);
    log.say(String.format("quiet window: %.2f API requests/s (WATCH excluded), %.2f of them the"
        + " operator's; operator CPU %.1f%%, RSS %.0f MiB, heap used %.0f MiB; kube-apiserver"
        + " CPU %.1f%%", steady.requests().perSecond(), steady.operatorRequests().perSecond(),
        steady.operatorCpuPercent(), steady.operatorRssMib(),
        steady.operatorHeapUsedMib(), steady.apiServerCpuPercent()));

    List<Long> latencies = specChangeLatencies(plan);

    operator.close();
    operator = null;
    List<FleetPlan.Member> hibernated = plan.etcdsToCreate().stream()
        .filter(m -> m.replicas() == 0).toList();
    for (int i = 0; i < hibernated.size(); i++) {
      // every hour step 2: unlike the template's and the latency phase's schedules
      fleet.changeSpec(hibernated.get(i).name(), (i % 60) + " */2 * * *");
    }
    fleet.awaitPending(hibernated.size(), settings.timeout());
    log.say("operator stopped; " + hibernated.size() + " hibernated Etcds changed; restarting");
    long restart = System.nanoTime();
    startOperator();
    double ready = BenchLog.secondsSince(restart);
    Phase afterRestart = Phase.since(restart,
        fleet.awaitAllComplete(plan.etcds(), settings.timeout()));
    log.say("reconciled after the restart: hibernated ones in " + afterRestart.hibernated()
        + " s, all in " + afterRestart.all() + " s");

    WindowFigures without = null;
    if (settings.background()) {
      operator.close();
      operator = null;
      log.say("operator stopped; measuring the same window without it");
      without = window(apiServerPid);
    }
    return new ScaleReport(plan, settings.operatorJvm(), createSeconds, afterCreate, ready,
        hibernated.size(), afterRestart, steady, without, latencies);
  }

  private void startCluster() throws IOException {
    long t = System.nanoTime();
    cluster = LocalCluster.start(new LocalCluster.Options(settings.workDir(),
        LocalStack.druidImage(), null));
    admin = cluster.newClient(null);
    CrdInstaller.install(admin, "etcd-druid");
    Files.createDirectories(stores());
    fleet = new Fleet(admin, NAMESPACE);
    log.say("control plane and node simulator up in " + BenchLog.secondsSince(t) + " s");
  }

  private void startOperator() throws InterruptedException {
    operator = OperatorProcess.start(new OperatorProcess.Launch(settings.operatorJvm(),
        cluster.kubeconfig(), stores(), System.getProperty("druid.image",
            DruidImage.DEFAULT_IMAGE), settings.leaderElection(), NAMESPACE,
        settings.workDir()), cluster.ledger());
    operator.awaitReady(settings.timeout());
  }

  private WindowFigures window(long apiServerPid) throws InterruptedException {
    WindowReading from = WindowReading.take(admin, apiServerPid, operator);
    Thread.sleep(settings.window().toMillis());
    WindowReading to = WindowReading.take(admin, apiServerPid, operator);
    return WindowFigures.between(from, to);
  }

  private List<Long> specChangeLatencies(FleetPlan plan) throws InterruptedException {
    List<Long> millis = new ArrayList<>();
    if (plan.hibernated() == 0 || settings.specChanges() == 0) {
      return millis;
    }
    String target = plan.etcdsToCreate().get(plan.etcds() - 1 - plan.hibernated() / 2).name();
    for (int i = 0; i < settings.specChanges(); i++) {
      long t = System.nanoTime();
      // minute 1..59, never the template's 0 nor the one before
      long generation = fleet.changeSpec(target, (i % 59 + 1) + " */1 * * *");
      long seen = fleet.awaitObserved(target, generation, settings.timeout());
      millis.add((seen - t) / 1_000_000);
    }
    log.say("spec changes on " + target + ": " + millis + " ms");
    return millis;
  }

  private Path stores() {
    return settings.workDir().resolve("stores");
  }

  private static long apiServerPid(ProcessLedger ledger) {
    return ledger.entries().stream().filter(e -> e.name().equals("kube-apiserver"))
        .mapToLong(ProcessLedger.Entry::pid).findFirst()
        .orElseThrow(() -> new IllegalStateException("no kube-apiserver in the ledger"));
  }



  /** Operator first, then the watch, the member pods and the control plane. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (operator != null) {
      operator.close();
    }
    if (fleet != null) {
      fleet.close();
    }
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }
}
