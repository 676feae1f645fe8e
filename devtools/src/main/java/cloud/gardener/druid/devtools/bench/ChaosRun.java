package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.devtools.bench.HistoryChecks.Check;
import cloud.gardener.druid.devtools.local.LocalStack;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.LeaderElection;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.faults.Fault;
import cloud.gardener.druid.testenv.faults.FaultInjector;
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
 * One chaos run: the local cluster, the operator as its own process and a 3-member Etcd (the
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
  private volatile OperatorProcess operator;
  /** The lease holder the last operator kill ended: its successor must take the lease. */
  private volatile String killedHolder = "";
  private ChaosMembers members;
  private ChaosLoad load;
  private RolloutRecorder recorder;
  private boolean closed;

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
    ChaosHealing healing = new ChaosHealing(admin, etcd, members, this::operatorReady,
        load.history());
    FaultInjector injector = new FaultInjector(this);
    List<ChaosRound> rounds = new ArrayList<>();
    for (Fault fault : settings.plan()) {
      long generation = fault.duringRollout() ? ChaosHealing.startRollout(admin, etcd,
          fault.round()) : healing.generation();
      int acked = load.history().acknowledgedWrites();
      int failed = load.history().failedWrites();
      FaultInjector.Applied applied = injector.apply(fault);
      Optional<Duration> heal = healing.await(applied, generation, settings.healTimeout());
      ChaosRound round = new ChaosRound(fault, applied.target(), applied.started(), heal,
          settings.healTimeout(), load.history().acknowledgedWrites() - acked,
          load.history().failureReasons(failed));
      rounds.add(round);
      roundLine.accept(round.line());
      if (!round.healed()) {
        log.say("round " + fault.round() + " did not heal; stopping the rounds");
        break;
      }
    }
    return new Report(rounds, checks(rounds));
  }

  private List<Check> checks(List<ChaosRound> rounds) throws Exception {
    List<Check> checks = new ArrayList<>(HistoryChecks.check(load.finish(30), 3));
    List<String> early = recorder.violations();
    checks.add(new Check("rollout predicate never true early", early.isEmpty(), early.isEmpty()
        ? recorder.etcdVersions() + " Etcd versions checked" : early.size() + " violations: "
        + String.join("; ", early.subList(0, Math.min(3, early.size())))));
    checks.add(ChaosRound.healCheck(rounds, settings.plan().size(), settings.healTimeout()));
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
    startOperator();
    operator.awaitReady(settings.healTimeout());
    Etcd etcd = ChaosHealing.createSampleEtcd(admin, NAMESPACE, settings.healTimeout());
    log.say("3-member Etcd " + NAMESPACE + "/" + etcd.getMetadata().getName() + " ready after "
        + BenchLog.secondsSince(log.started()) + " s");
    recorder = RolloutRecorder.start(admin, etcd, new OperatorSettings(memberImage(),
        stores().toString()));
    members = new ChaosMembers(admin, etcd);
    load = ChaosLoad.start(members, WRITERS);
    return etcd;
  }

  private void startOperator() {
    operator = OperatorProcess.start(new OperatorProcess.Launch(settings.operatorJvm(),
        cluster.kubeconfig(), stores(), memberImage(), settings.leaderElection(), NAMESPACE,
        settings.workDir()), cluster.ledger());
  }

  /**
   * The operator answers /readyz and, with leader election, holds the lease under an identity
   * other than the killed one's: /readyz alone answers while a standby waits for the lease.
   */
  private boolean operatorReady() {
    try {
      return operator.isReady() && (!settings.leaderElection()
          || leaseHolder().filter(h -> !h.equals(killedHolder)).isPresent());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Optional<String> leaseHolder() {
    try {
      return Optional.ofNullable(admin.leases().inNamespace(NAMESPACE)
          .withName(LeaderElection.LEASE_NAME).get()).map(l -> l.getSpec().getHolderIdentity());
    } catch (RuntimeException apiUnavailable) {
      return Optional.empty();
    }
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
    killedHolder = leaseHolder().orElse("");
    operator.kill();
    startOperator();
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
    for (AutoCloseable c : new AutoCloseable[] {load, recorder, members}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        log.plain("closing " + c + ": " + e);
      }
    }
    if (operator != null) {
      operator.close();
    }
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }
}
