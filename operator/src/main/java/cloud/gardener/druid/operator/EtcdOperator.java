package cloud.gardener.druid.operator;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentTlsContexts;
import cloud.gardener.druid.operator.agent.HttpAgentClient;
import cloud.gardener.druid.operator.compaction.CompactionMetrics;
import cloud.gardener.druid.operator.compaction.CompactionReconciler;
import cloud.gardener.druid.operator.drill.DrillJobs;
import cloud.gardener.druid.operator.drill.DrillMetrics;
import cloud.gardener.druid.operator.drill.DrillScheduleReconciler;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import cloud.gardener.druid.operator.component.AgentApiSecretComponent;
import cloud.gardener.druid.operator.component.Component;
import cloud.gardener.druid.operator.component.ConfigMapComponent;
import cloud.gardener.druid.operator.component.DisruptionBudgetComponent;
import cloud.gardener.druid.operator.component.LeaseComponent;
import cloud.gardener.druid.operator.component.RoleBindingComponent;
import cloud.gardener.druid.operator.component.RoleComponent;
import cloud.gardener.druid.operator.component.ServiceAccountComponent;
import cloud.gardener.druid.operator.component.ServicesComponent;
import cloud.gardener.druid.operator.copy.EtcdCopyBackupsTaskReconciler;
import cloud.gardener.druid.operator.etcd.EtcdCleanup;
import cloud.gardener.druid.operator.etcd.EtcdReconciler;
import cloud.gardener.druid.operator.etcd.CapacityStep;
import cloud.gardener.druid.operator.capacity.CapacityPlan;
import cloud.gardener.druid.operator.etcd.EventRecorder;
import cloud.gardener.druid.operator.etcd.RolloutExecutor;
import cloud.gardener.druid.operator.metrics.OperatorMetrics;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.EtcdObserver;
import cloud.gardener.druid.operator.rollout.MemberRollout;
import cloud.gardener.druid.operator.observe.RaftIndexHealth;
import cloud.gardener.druid.operator.task.EtcdOpsTaskReconciler;
import cloud.gardener.druid.operator.task.TasksInProgress;
import cloud.gardener.druid.operator.task.VolumeHandshake;
import cloud.gardener.druid.operator.status.VolumeRecorder;
import cloud.gardener.druid.operator.webhook.ComponentProtectionWebhook;
import cloud.gardener.druid.operator.webhook.WebhookSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Wires the controllers and runs them (the body of {@code druid operator}). */
public final class EtcdOperator implements AutoCloseable {

  /** Options of the operator process. */
  public record Options(Set<String> namespaces, boolean autoReconcile, boolean leaderElection,
      String leaderElectionNamespace, LeaderElection.Timing leaderElectionTiming,
      OperatorSettings settings) {

    public Options {
      Objects.requireNonNull(leaderElectionTiming, "leaderElectionTiming");
    }

    /** With the default leader-election timing. */
    public Options(Set<String> namespaces, boolean autoReconcile, boolean leaderElection,
        String leaderElectionNamespace, OperatorSettings settings) {
      this(namespaces, autoReconcile, leaderElection, leaderElectionNamespace,
          LeaderElection.Timing.DEFAULT, settings);
    }
  }

  private final Operator operator;
  private final KubernetesClient client;
  private final Options options;
  private final LeaderElection leaderElection;
  private final EtcdOpsTaskReconciler tasks;
  private final OperatorMetrics metrics;
  private final RolloutExecutor rolloutExecutor;
  private WebhookSettings webhookSettings;
  private ComponentProtectionWebhook webhook;
  /** The agent status calls of every Etcd: one small pool, so they never pile up threads. */
  private final ExecutorService agentCalls = Executors.newFixedThreadPool(8, r -> {
    Thread t = new Thread(r, "agent-client");
    t.setDaemon(true);
    return t;
  });

  public EtcdOperator(KubernetesClient client, Options options) {
    this(client, options, new OperatorMetrics());
  }

  /**
   * With {@code metrics} made beforehand, so that {@code client} can carry its
   * {@link OperatorMetrics#clientRequests()} counter.
   */
  public EtcdOperator(KubernetesClient client, Options options, OperatorMetrics metrics) {
    this(client, options, metrics, new OwnedCaches());
  }

  private EtcdOperator(KubernetesClient client, Options options, OperatorMetrics metrics,
      OwnedCaches caches) {
    this(client, options, HttpAgentClient.withTlsFrom(
        new AgentTlsContexts(client, Clock.systemUTC(), caches)), metrics, caches);
  }

  public EtcdOperator(KubernetesClient client, Options options, AgentClient agents) {
    this(client, options, agents, new OperatorMetrics(), new OwnedCaches());
  }

  private EtcdOperator(KubernetesClient client, Options options, AgentClient agents,
      OperatorMetrics metrics, OwnedCaches caches) {
    this.client = client;
    this.options = options;
    this.metrics = metrics;
    this.leaderElection = new LeaderElection(LeaderElection.newIdentity(),
        options.leaderElectionTiming(),
        () -> new Thread(() -> System.exit(1), "leader-lost-exit").start());
    this.operator = new Operator(o -> {
      o.withKubernetesClient(client).withCloseClientOnStop(false).withMetrics(metrics.josdk());
      if (options.leaderElection()) {
        o.withLeaderElectionConfiguration(
            leaderElection.configuration(options.leaderElectionNamespace()));
      }
    });
    EventRecorder events = new EventRecorder(client, leaderElection.identity());
    Clock clock = Clock.systemUTC();
    List<Component> components = List.of(new AgentApiSecretComponent(client, clock, caches),
        new ServiceAccountComponent(client, caches), new RoleComponent(client, caches),
        new RoleBindingComponent(client, caches), new LeaseComponent(client, caches),
        new DisruptionBudgetComponent(client, caches), new ServicesComponent(client, caches),
        new ConfigMapComponent(client, caches));
    VolumeRecorder volumes = new VolumeRecorder(client);
    EtcdObserver observer = new EtcdObserver(client, agents, agentCalls, clock,
        VolumeHandshake.source(client), volumes, caches);
    this.rolloutExecutor = new RolloutExecutor(client, agents, options.settings(), events,
        volumes);
    EtcdReconciler reconciler = new EtcdReconciler(client, components, observer, volumes,
        new MemberRollout(new RaftIndexHealth(AgentApi.MAX_RAFT_LAG)),
        rolloutExecutor,
        new EtcdCleanup(client, components, events), options.autoReconcile(), clock, events,
        options.settings(), caches, new CapacityStep(new CapacityPlan(
            new RaftIndexHealth(AgentApi.MAX_RAFT_LAG)), TasksInProgress.source(client), agents,
            events, volumes, clock));
    // every reconcile asks for its next resync itself; this only backs that up
    operator.register(reconciler, c -> {
      watch(c, options);
      c.withReconciliationMaxInterval(Duration.ofMinutes(15));
    });
    DrillJobs drills = new DrillJobs(client, options.settings(), clock);
    this.tasks = new EtcdOpsTaskReconciler(client, agents, observer, rolloutExecutor, clock,
        events, drills, options.settings());
    operator.register(tasks, c -> watch(c, options));
    operator.register(new EtcdCopyBackupsTaskReconciler(client, options.settings()),
        c -> watch(c, options));
    operator.register(new DrillScheduleReconciler(drills,
        new DrillMetrics(metrics.registry(), clock)), c -> watch(c, options));
    if (options.settings().compaction().enabled()) {
      operator.register(new CompactionReconciler(client, agents, options.settings(),
          new CompactionMetrics(metrics.registry()), clock), c -> watch(c, options));
    }
  }

  private static void watch(ControllerConfigurationOverrider<?> c, Options options) {
    if (options.namespaces().isEmpty()) {
      c.watchingAllNamespaces();
    } else {
      c.settingNamespaces(options.namespaces());
    }
  }

  /**
   * Serves upstream's component protection webhook from {@link #start} on (call before it):
   * changes to the objects the operator manages by others are refused.
   */
  public void protectComponents(WebhookSettings settings) {
    this.webhookSettings = settings;
  }

  public void start() {
    if (webhookSettings != null) {
      try {
        webhook = ComponentProtectionWebhook.start(client, webhookSettings,
            options.namespaces(), Clock.systemUTC());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot serve the component protection webhook", e);
      }
    }
    operator.start();
  }

  /** Reconcile, per-Etcd, process and JVM metrics, served by {@code MetricsServer}. */
  public OperatorMetrics metrics() {
    return metrics;
  }

  /** Ready once started; a standby replica is ready too (it serves by taking over). */
  public boolean ready() {
    return operator.getRuntimeInfo().isStarted();
  }

  /** This process's leader-election identity; its events name it as reporting instance. */
  public String identity() {
    return leaderElection.identity();
  }

  /**
   * Stops reconciling: JOSDK lets running reconciles finish (every step is recorded before
   * it acts, so the next leader resumes whatever was started) and gives up leadership.
   */
  @Override
  public void close() {
    leaderElection.closing();
    operator.stop();
    tasks.close();
    rolloutExecutor.close();
    if (options.leaderElection()) {
      leaderElection.release(client, options.leaderElectionNamespace());
    }
    agentCalls.shutdownNow();
    metrics.close();
    if (webhook != null) {
      webhook.close();
    }
  }
}
