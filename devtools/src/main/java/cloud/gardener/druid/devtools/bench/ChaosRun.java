package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.devtools.bench.HistoryChecks.Check;
import cloud.gardener.druid.devtools.local.LocalStack;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.faults.Fault;
import cloud.gardener.druid.testenv.faults.FaultInjector;
import cloud.gardener.druid.testenv.faults.FaultKind;
import cloud.gardener.druid.testenv.faults.FaultTargets;
import cloud.gardener.druid.testenv.node.DruidImage;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One chaos run: the local cluster, the operator as its own process (two replicas when the plan
 * fails one over) and a 3-member Etcd (the
 * sample of {@code druid local up}), clients recording a history, then one fault per round,
 * each followed by the wait until the cluster healed, and at the end the checks. Whatever it
 * started is stopped when it returns, fails or the JVM is asked to exit.
 */
final class ChaosRun implements AutoCloseable, FaultTargets {

  static final String NAMESPACE = "chaos";
  static final int WRITERS = 2;

  /** What to run; see {@link ChaosBenchCommand}'s options. */
  record Settings(long seed, List<Fault> plan, List<String> operatorJvm, Path workDir,
      Duration healTimeout, boolean leaderElection) {
  }

  /** The run's outcome: one line per round, then the checks. */
  record Report(List<ChaosRound> rounds, List<Check> checks) {

    boolean passed() {
      return checks.stream().allMatch(Check::held);
    }
  }

  private final Settings settings;
  private final BenchLog log;
  private LocalCluster cluster;
  private KubernetesClient admin;
  private KubernetesClient recorderClient;
  private ChaosOperators operators;
  private ChaosMembers members;
  private ChaosLoad load;
  private RolloutRecorder recorder;
  private boolean closed;
  private final List<ChaosOutage> outages = new ArrayList<>();

  private ChaosRun(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.log = new BenchLog(progress);
  }

  /** Runs it; {@code roundLine} gets each round's line as soon as the round healed. */
  static Report run(Settings settings, Consumer<String> progress, Consumer<String> roundLine)
      throws Exception {
    ChaosRun run = new ChaosRun(settings, progress);
    Thread cleanup = new Thread(run::close, "druid-chaos-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      return run.rounds(roundLine);
    } finally {
      run.close();
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException exiting) {
        // the hook is running already
      }
    }
  }

  private Report rounds(Consumer<String> roundLine) throws Exception {
    log.say("seed " + settings.seed() + ", work directory " + settings.workDir() + " (logs in logs/)");
    Etcd etcd = startEverything();
    ChaosHealing healing = new ChaosHealing(admin, etcd, members, operators::ready,
        load.history());
    FaultInjector injector = new FaultInjector(this);
    List<ChaosRound> rounds = new ArrayList<>();
    for (Fault fault : settings.plan()) {
      ChaosRound round = play(fault, etcd, healing, injector);
      rounds.add(round);
      roundLine.accept(round.line());
      if (!round.healed()) {
        log.say("round " + fault.round() + " did not heal; stopping the rounds");
        break;
      }
    }
    return new Report(rounds, checks(rounds));
  }

  /**
   * One round: the rollout when it runs during one, the fault, the wait until healed. After an
   * API server kill that did not hit a rollout, a spec change is made as soon as the API is
   * back: the operator's watches must have resumed for it to complete.
   */
  private ChaosRound play(Fault fault, Etcd etcd, ChaosHealing healing, FaultInjector injector)
      throws InterruptedException {
    long roundStart = System.nanoTime();
    long generation = fault.duringRollout() ? ChaosHealing.startRollout(admin, etcd,
        fault.round()) : healing.generation();
    int acked = load.history().acknowledgedWrites();
    int failed = load.history().failedWrites();
    java.util.Set<Long> operatorPids = operators.pids();
    FaultInjector.Applied applied = injector.apply(fault);
    String target = applied.target();
    Duration down = Duration.between(applied.started(), applied.ended());
    int writesDuringFault = load.history().acknowledgedWrites() - acked;
    List<String> failedDuringFault = load.history().failureReasons(failed);
    boolean outage = fault.kind() == FaultKind.APISERVER_KILL;
    if (outage) {
      target += String.format(" down %.1fs", down.toMillis() / 1000.0);
      if (!fault.duringRollout()) {
        generation = ChaosHealing.startRollout(admin, etcd, fault.round());
      }
    }
    Optional<Duration> heal = healing.await(applied, generation, settings.healTimeout());
    if (fault.kind() == FaultKind.OPERATOR_FAILOVER || fault.kind() == FaultKind.OPERATOR_KILL) {
      target += operators.leaderName().map(n -> ", " + n + " took over").orElse("");
    }
    if (outage) {
      outages.add(new ChaosOutage(fault.round(), down, writesDuringFault, failedDuringFault,
          operators.stillRunning(operatorPids),
          recorder.podDeletionsSince(roundStart), etcd.getSpec().getReplicas()));
    }
    return new ChaosRound(fault, target, applied.started(), heal, settings.healTimeout(),
        load.history().acknowledgedWrites() - acked, load.history().failureReasons(failed));
  }

  private List<Check> checks(List<ChaosRound> rounds) throws Exception {
    List<Check> checks = new ArrayList<>(HistoryChecks.check(load.finish(30), 3));
    List<String> early = recorder.violations();
    List<String> unobserved = recorder.unobserved();
    checks.add(new Check("rollout predicate never true early", early.isEmpty(), early.isEmpty()
        ? recorder.etcdVersions() + " Etcd versions checked (watches " + recorder.resumptions()
        + (unobserved.isEmpty() ? "" : "; " + String.join("; ", unobserved)) + ")"
        : early.size() + " violations: "
        + String.join("; ", early.subList(0, Math.min(3, early.size())))));
    checks.add(ChaosRound.healCheck(rounds, settings.plan().size(), settings.healTimeout()));
    checks.add(ChaosOutage.check(outages));
    return checks;
  }

  private Etcd startEverything() throws Exception {
    long t = System.nanoTime();
    cluster = LocalCluster.start(new LocalCluster.Options(settings.workDir(),
        LocalStack.druidImage(), null));
    admin = cluster.newClient(null);
    CrdInstaller.install(admin, "etcd-druid");
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
        .endMetadata().build()).create();
    Files.createDirectories(stores());
    log.say("control plane and node simulator up in " + BenchLog.secondsSince(t) + " s");
    operators = new ChaosOperators(new OperatorProcess.Launch(settings.operatorJvm(),
        cluster.kubeconfig(), stores(), memberImage(), settings.leaderElection(), NAMESPACE,
        settings.workDir()), cluster.ledger(), admin);
    operators.start(operatorReplicas(), settings.healTimeout());
    Etcd etcd = ChaosHealing.createSampleEtcd(admin, NAMESPACE, settings.healTimeout());
    log.say("3-member Etcd " + NAMESPACE + "/" + etcd.getMetadata().getName() + " ready after "
        + BenchLog.secondsSince(log.started()) + " s");
    recorderClient = impatientClient(cluster.kubeconfig());
    recorder = RolloutRecorder.start(recorderClient, etcd, new OperatorSettings(memberImage(),
        stores().toString()));
    members = new ChaosMembers(admin, etcd);
    load = ChaosLoad.start(members, WRITERS);
    return etcd;
  }

  /** Two replicas when the plan fails one over, else one (as the chart's default). */
  private int operatorReplicas() {
    return settings.plan().stream().anyMatch(f -> f.kind() == FaultKind.OPERATOR_FAILOVER)
        ? 2 : 1;
  }

  @Override
  public long agentPid(int member) {
    return ChaosMembers.agentPid(members.pod(member)).orElseThrow(() ->
        new IllegalStateException("member " + member + " has no running container"));
  }

  @Override
  public int leader() {
    return members.leader();
  }

  @Override
  public void killOperator() {
    operators.killLeader();
  }

  @Override
  public String killLeadingOperator() {
    return operators.failOver();
  }

  @Override
  public void killApiServer() {
    cluster.controlPlane().killApiServer();
  }

  /**
   * Back, and the recorder's watches resumed from a list (their old versions are gone) as
   * soon as the new API server answers one: it serves requests before its /readyz says ready,
   * and whatever the operator or the node writes before the list is not observed.
   */
  @Override
  public void restartApiServer() {
    Thread resumer = new Thread(this::resumeRecorder, "chaos-recorder-resume");
    resumer.start();
    try {
      cluster.controlPlane().restartApiServer();
      resumer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      resumer.interrupt();
    }
  }

  private void resumeRecorder() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        recorder.resume();
        return;
      } catch (RuntimeException notServingYet) {
        try {
          Thread.sleep(50); // retrying a list until the restarted API server answers
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /**
   * A client that does not retry a failed request on its own: fabric8's default backs off
   * up to ten times, so a list sent while the API server was down would be answered seconds
   * after it is back, and the recorder would observe nothing of those seconds.
   */
  private static KubernetesClient impatientClient(Path kubeconfig) throws java.io.IOException {
    io.fabric8.kubernetes.client.Config config =
        io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(kubeconfig));
    config.setRequestRetryBackoffLimit(0);
    return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build();
  }

  private static String memberImage() {
    return System.getProperty("druid.image", DruidImage.DEFAULT_IMAGE);
  }

  private Path stores() {
    return settings.workDir().resolve("stores");
  }



  /** The clients first, then the operator and the control plane. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (AutoCloseable c : new AutoCloseable[] {load, recorder, recorderClient, members}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        log.plain("closing " + c + ": " + e);
      }
    }
    if (operators != null) {
      operators.close();
    }
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }
}
