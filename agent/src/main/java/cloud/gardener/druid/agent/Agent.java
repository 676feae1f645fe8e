package cloud.gardener.druid.agent;

import static cloud.gardener.druid.agent.util.Closeables.closeQuietly;

import cloud.gardener.druid.agent.config.AgentConfig;
import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.defrag.Defragmenter;
import cloud.gardener.druid.agent.space.SpaceSampler;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.agent.etcd.EtcdConfigBuilder;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.EtcdBinaryVersion;
import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.LeaderHandOver;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.http.Backups;
import cloud.gardener.druid.agent.http.EtcdMember;
import cloud.gardener.druid.agent.http.Initialization;
import cloud.gardener.druid.agent.init.DataDirValidator;
import cloud.gardener.druid.agent.init.DataDirValidator.Mode;
import cloud.gardener.druid.agent.init.GuardFile;
import cloud.gardener.druid.agent.init.GuardMismatchException;
import cloud.gardener.druid.agent.init.Initializer;
import cloud.gardener.druid.agent.init.PeerUrlUpdate;
import cloud.gardener.druid.agent.init.StartPlan;
import cloud.gardener.druid.agent.lease.LeaseRenewer;
import cloud.gardener.druid.agent.metrics.AgentMetrics;
import cloud.gardener.druid.agent.metrics.CertificateExpiry;
import cloud.gardener.druid.agent.metrics.SnapshotMetrics;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import cloud.gardener.druid.agent.restore.Restorer;
import cloud.gardener.druid.agent.snapshot.SnapshotListener;
import cloud.gardener.druid.agent.verify.BackupHashRecorder;
import cloud.gardener.druid.agent.snapshot.SnapshotScheduler;
import cloud.gardener.druid.agent.store.LazySnapshotStore;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.StoreIdentity;
import cloud.gardener.druid.agent.util.Closeables;
import cloud.gardener.druid.agent.util.CronRunner;
import cloud.gardener.druid.api.agent.InitStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member agent: initialises the data directory, supervises etcd, and while etcd runs
 * takes snapshots, promotes itself when it joined as a learner, defragments on schedule and
 * renews leases. {@link #run()} returns the process exit code: 0 after a requested stop
 * (the JVM reports 143 when that stop came as SIGTERM), etcd's code (or 1) when etcd died, 2
 * when the data directory belongs to another Etcd.
 */
public final class Agent implements AutoCloseable, Initialization, EtcdMember, Backups {

  private static final Logger LOG = LoggerFactory.getLogger(Agent.class);
  /** Present while etcd runs; left behind by a crash so the next start validates fully. */
  static final String RUNNING_MARKER = "druid-etcd-running";
  /** sysexits EX_DATAERR: apart from a usage error (2) and invalid options (64). */
  public static final int EXIT_GUARD_MISMATCH = 65;
  static final Duration LEADER_TRANSFER_TIMEOUT = Duration.ofSeconds(5);

  private final AgentConfig config;
  private final OutputStream etcdOutput;
  private final AgentMetrics metrics = new AgentMetrics();
  private final Semaphore initTrigger = new Semaphore(0);
  private final Optional<SnapshotStore> store;
  private volatile InitStatus initStatus = InitStatus.New;
  private volatile String initError = "";
  private final RestoreProgress restoreProgress = new RestoreProgress(Clock.systemUTC());
  private volatile Mode requestedMode;
  private volatile Map<String, String> etcdConfig = Map.of();
  private final EtcdEnding ending;
  private volatile EtcdProcess etcd;
  private volatile MemberClient client;
  /** The client of this member's etcd, built while the agent initialises. */
  private final CompletableFuture<MemberClient> warmClient = new CompletableFuture<>();
  private volatile SnapshotScheduler scheduler;
  private volatile boolean stopping;
  private CronRunner defrag;
  private volatile SpaceSampler space;
  /** How old the space in a member status may be (the operator asks every 2 s in a step). */
  private static final Duration SPACE_MAX_AGE = Duration.ofSeconds(1);
  private LearnerPromoter promoter;
  private PeerUrlUpdate peerUrl;
  private LeaseRenewer leases;

  public Agent(AgentConfig config, OutputStream etcdOutput) throws IOException {
    this.config = config;
    this.etcdOutput = etcdOutput;
    this.store = config.store().<SnapshotStore>map(LazySnapshotStore::new);
    this.ending = new EtcdEnding(config.member());
    metrics.certificates(CertificateExpiry.of(config.member().clientTls(),
        config.member().peerTls(), config.serverTls()));
    Thread warmUp = new Thread(this::buildClient, "etcd client warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
  }

  /**
   * Builds the etcd client and its gRPC channel while the API starts and the data directory
   * is initialised: on a cold JVM that costs about half a second, which /healthz would
   * otherwise wait for after etcd is up.
   */
  private void buildClient() {
    try {
      warmClient.complete(new MemberClient(config.member().localClientUrl(),
          config.member().localClientTls(), config.member().etcdCredentials()).warmUp());
    } catch (RuntimeException e) {
      warmClient.completeExceptionally(e);
    }
  }

  public int run() throws Exception {
    Optional<StartPlan> plan = initializeUntilDone();
    if (plan.isEmpty()) {
      return stopping ? 0 : EXIT_GUARD_MISMATCH;
    }
    startEtcd(plan.get());
    if (plan.get().outcome() == StartPlan.Outcome.RESTORED) {
      // while etcd opens the restored database, not before etcd starts
      HeapRelease.now();
    }
    startServices(plan.get());
    int code = etcd.exit().join();
    return ending.afterExit(etcd, code, () -> stopping, this::stopServices, initTrigger);
  }

  private Optional<StartPlan> initializeUntilDone() throws InterruptedException, IOException {
    Initializer initializer = initializer();
    while (!stopping) {
      initStatus = InitStatus.Progress;
      try {
        StartPlan plan = initializer.initialize(mode());
        initStatus = InitStatus.Successful;
        initError = "";
        LOG.info("initialisation done: {}", plan.outcome());
        return Optional.of(plan);
      } catch (GuardMismatchException e) {
        fail(e.getMessage());
        return Optional.empty();
      } catch (Exception e) {
        fail(e.getMessage());
        initTrigger.tryAcquire(config.initRetryPeriod().toMillis(), TimeUnit.MILLISECONDS);
      }
    }
    return Optional.empty();
  }

  private void fail(String message) {
    initStatus = InitStatus.Failed;
    initError = message;
    LOG.error("initialisation failed: {}", message);
  }

  private Mode mode() {
    Mode requested = requestedMode;
    requestedMode = null;
    if (requested != null) {
      return requested;
    }
    return Files.exists(config.member().dataDir().resolve(RUNNING_MARKER)) ? Mode.FULL
        : Mode.SANITY;
  }

  private Initializer initializer() {
    MemberConfig member = config.member();
    GuardFile guard = new GuardFile(member.namespace(), member.etcdName());
    DataDirValidator validator = new DataDirValidator(config.etcd().etcdutl(), guard);
    Optional<Restorer> restorer = store.map(s -> new Restorer(s, config.etcd(), member,
        restoreProgress));
    return new Initializer(member, validator, guard, store, restorer, metrics.backupRestore(),
        () -> EtcdBinaryVersion.minor(config.etcd().etcd()));
  }

  private void startEtcd(StartPlan plan) throws IOException {
    etcdConfig = EtcdConfigBuilder.configOf(config.member(), config.etcd(), plan.cluster(),
        plan.state(), EtcdBinaryVersion.minor(config.etcd().etcd()));
    Files.createDirectories(config.member().dataDir());
    Files.writeString(config.member().dataDir().resolve(RUNNING_MARKER), "");
    etcd = EtcdProcess.watched(config.etcd().etcd(), EtcdConfigBuilder.flags(etcdConfig),
        etcdOutput);
    // not yet listening: the client's first call would back off and /healthz answer late
    etcd.awaitListening(config.member().localClientUrl(), Duration.ofSeconds(60));
    client = awaitClient();
    // connects while etcd finishes its start: the first /healthz finds the channel ready
    client.connectAhead();
  }

  private MemberClient awaitClient() {
    try {
      return warmClient.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  private void startServices(StartPlan plan) {
    if (plan.outcome() == StartPlan.Outcome.JOINED_AS_LEARNER) {
      metrics.backupRestore().learner(true);
      promoter = new LearnerPromoter(client, config.member(), metrics.backupRestore());
      promoter.start();
    } else {
      peerUrl = new PeerUrlUpdate(config.member());
      peerUrl.afterStart(client);
    }
    SnapshotListener listener = new SnapshotMetrics(metrics.backupRestore())
        .and(new HeapRelease());
    if (config.leases()) {
      leases = LeaseRenewer.start(config, client);
      listener = leases.and(listener);
    }
    if (store.isPresent()) {
      listener = listener.and(BackupHashRecorder.inBackground(client, store.get(),
          config.member().name(), Clock.systemUTC(), BackupHashRecorder.DELTA_INTERVAL));
      scheduler = new SnapshotScheduler(client, store.get(), config.snapshots(),
          Clock.systemUTC(), config.timings(), listener,
          new StoreIdentity(config.member().namespace(), config.member().etcdName()));
      scheduler.start();
    }
    Defragmenter defragmenter = new Defragmenter(client, config.member(),
        metrics.backupRestore(), config.timings().defragTimeout());
    defrag = new CronRunner("defragmentation", config.defragSchedule(),
        defragmenter::runIfLeader);
    defrag.start();
    space = new SpaceSampler(this::client, config.member().dataDir(),
        config.etcd().quotaBackendBytes(), Clock.systemUTC()).start();
  }

  @Override
  public void triggerInitialization(Optional<Mode> mode) {
    mode.ifPresent(m -> requestedMode = m);
    initTrigger.release();
  }

  @Override
  public InitStatus initStatus() {
    return initStatus;
  }

  /** How far the restore of the initialisation is (or the last one went). */
  @Override
  public Optional<RestoreProgress.View> restore() {
    return restoreProgress.current();
  }

  @Override
  public String initError() {
    return initError;
  }

  @Override
  public Map<String, String> etcdConfig() {
    return etcdConfig;
  }

  @Override
  public Optional<String> corruption() {
    return ending.corruption();
  }

  @Override
  public Optional<MemberClient> client() {
    return Optional.ofNullable(client).filter(c -> !stopping && etcd != null && etcd.isAlive());
  }

  @Override
  public Optional<MemberSpace> space() {
    return Optional.ofNullable(space).flatMap(sp -> sp.fresh(SPACE_MAX_AGE));
  }

  @Override
  public void spaceChanged() {
    Optional.ofNullable(space).ifPresent(SpaceSampler::invalidate);
  }

  @Override
  public Optional<SnapshotScheduler> scheduler() {
    return Optional.ofNullable(scheduler);
  }

  @Override
  public Optional<SnapshotStore> store() {
    return store;
  }

  public AgentMetrics metrics() {
    return metrics;
  }

  public AgentConfig config() {
    return config;
  }

  @Override
  public boolean etcdHealthy() {
    try {
      return client().isPresent() && client.status() != null;
    } catch (EtcdException e) {
      return false;
    }
  }

  @Override
  public void moveLeader(long to) throws EtcdException {
    LeaderHandOver.moveTo(client().orElseThrow(), to, config.member());
  }

  @Override
  public boolean etcdServesClients() {
    try {
      return client().isPresent() && !client.status().learner();
    } catch (EtcdException e) {
      return false;
    }
  }

  public Path dataDir() {
    return config.member().dataDir();
  }

  /**
   * Stops in this order: the agent's own work (defragmentation, promotion, snapshots, lease
   * renewal); then etcd ({@link EtcdEnding#stop}): leadership moves to another voting member
   * when this one leads (at most {@link #LEADER_TRANSFER_TIMEOUT}); the agent's etcd client
   * with its watch streams closes; only then etcd gets SIGTERM (grace period, then SIGKILL). etcd's graceful stop waits for every open gRPC stream up to its request timeout
   * (5 s + 2 election timeouts), so a watch still open at SIGTERM would hold the stop that
   * long. {@link #run()} then returns 0.
   */
  @Override
  public void close() {
    stopping = true;
    initTrigger.release();
    stopServices();
    ending.stop(etcd, client, warmClient);
    store.ifPresent(Closeables::closeQuietly);
    closeQuietly(metrics);
  }

  private void stopServices() {
    closeQuietly(defrag, space, promoter, peerUrl, scheduler, leases);
  }

}
