package cloud.gardener.druid.cli;

import cloud.gardener.druid.cli.shared.GoDurationConverter;
import cloud.gardener.druid.cli.shared.LocalStoreLayoutConverter;
import cloud.gardener.druid.cli.shared.UserError;
import cloud.gardener.druid.cli.shared.Version;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.LeaderElection;
import cloud.gardener.druid.operator.metrics.MetricsServer;
import cloud.gardener.druid.operator.metrics.OperatorMetrics;
import cloud.gardener.druid.operator.model.CompactionSettings;
import cloud.gardener.druid.operator.model.LocalStoreLayout;
import cloud.gardener.druid.operator.model.OperatorSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

/** {@code druid operator}: runs the controllers for Etcd, EtcdOpsTask and EtcdCopyBackupsTask. */
@Command(
    name = "operator",
    mixinStandardHelpOptions = true,
    description = {
        "Run the operator: reconciles Etcd, EtcdOpsTask and EtcdCopyBackupsTask "
            + "resources. Uses the in-cluster service account, or --kubeconfig / $KUBECONFIG "
            + "outside a cluster."})
final class OperatorCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Upstream's OperatorConfiguration file (apiVersion "
          + OperatorConfigurationFile.API_VERSION + "): its fields set the options of the same"
          + " meaning; options given here win; fields without a meaning here are named at start.")
  Path config;

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "Kubeconfig to use (default: $KUBECONFIG, then in-cluster).")
  String kubeconfig;

  @Option(names = "--namespace", paramLabel = "NS", split = ",",
      description = "Namespaces to watch (default: all).")
  List<String> namespaces = List.of();

  @Option(names = "--enable-etcd-spec-auto-reconcile", negatable = true, defaultValue = "true",
      fallbackValue = "true",
      description = "Reconcile spec changes at once (default: ${DEFAULT-VALUE}); otherwise only"
          + " when annotated with druid.gardener.cloud/operation=reconcile.")
  boolean autoReconcile;

  @Option(names = "--leader-election", negatable = true, defaultValue = "true",
      fallbackValue = "true",
      description = "Elect a leader among operator replicas (default: ${DEFAULT-VALUE}).")
  boolean leaderElection;

  @Option(names = "--leader-election-namespace", paramLabel = "NS",
      description = "Namespace of the leader election lease (default: the operator's own).")
  String leaderElectionNamespace;

  @Option(names = LeaderElection.Timing.LEASE_DURATION_FLAG, paramLabel = "DURATION",
      defaultValue = "30s", converter = GoDurationConverter.class,
      description = "How long a lease not renewed keeps other replicas from taking over"
          + " (default: ${DEFAULT-VALUE}; upstream's controller-runtime: 15s).")
  Duration leaseDuration;

  @Option(names = LeaderElection.Timing.RENEW_DEADLINE_FLAG, paramLabel = "DURATION",
      defaultValue = "20s", converter = GoDurationConverter.class,
      description = "The leader stops when it could not renew the lease for this long"
          + " (default: ${DEFAULT-VALUE}; upstream's: 10s).")
  Duration renewDeadline;

  @Option(names = LeaderElection.Timing.RETRY_PERIOD_FLAG, paramLabel = "DURATION",
      defaultValue = "8s", converter = GoDurationConverter.class,
      description = "How often the leader renews the lease (a GET and a PATCH) and a standby"
          + " tries to take it (default: ${DEFAULT-VALUE}; upstream's: 2s).")
  Duration retryPeriod;

  @Option(names = "--image", paramLabel = "IMAGE",
      description = "Image of member pods when the Etcd names none (runs 'druid agent');"
          + " default: " + OperatorSettings.IMAGE_REPOSITORY + ":<this build's version>.")
  String image;

  @Option(names = "--local-store-root", paramLabel = "DIR",
      defaultValue = OperatorSettings.DEFAULT_LOCAL_STORE_ROOT,
      description = "Host directory of Local backup stores (default: ${DEFAULT-VALUE}).")
  String localStoreRoot;

  @Option(names = "--local-store-layout", paramLabel = "per-namespace|shared",
      defaultValue = "per-namespace", converter = LocalStoreLayoutConverter.class,
      description = "Directory of a Local store: <root>/<namespace>/<container>, so that no"
          + " namespace sees another's backups, or 'shared': <root>/<container> for every"
          + " namespace, as upstream and releases before this option (default: ${DEFAULT-VALUE}).")
  LocalStoreLayout localStoreLayout;

  @Option(names = "--etcd-corrupt-check-period", paramLabel = "DURATION", defaultValue = "1h",
      converter = GoDurationConverter.class,
      description = "How often etcd's periodic corruption check hashes every member's key"
          + " space (the members' agent --corrupt-check-period; default: ${DEFAULT-VALUE}, at"
          + " least 1s). Each check reads the whole database on every member"
          + " (docs/benchmarks.md); shorter periods are for tests.")
  Duration corruptCheckPeriod;

  @Option(names = "--install-crds", negatable = true, defaultValue = "false",
      description = "Apply the druid CRDs at start (default: ${DEFAULT-VALUE}); production"
          + " installs them with the Helm chart.")
  boolean installCrds;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      defaultValue = "" + MetricsServer.DEFAULT_PORT,
      description = "Port of /metrics, /healthz and /readyz"
          + " (default: ${DEFAULT-VALUE}, as upstream's chart; -1: none).")
  int metricsPort;

  @Option(names = "--metrics-address", paramLabel = "ADDRESS", defaultValue = "0.0.0.0",
      description = "Address of the metrics port (default: ${DEFAULT-VALUE}; the chart gives"
          + " the pod's IP).")
  String metricsAddress;

  @Option(names = "--enable-backup-compaction", negatable = true, defaultValue = "false",
      fallbackValue = "true",
      description = "Compact the backups of Etcds with a store: a Job runs 'druid agent compact'"
          + " when the delta events since the last full snapshot reach the threshold"
          + " (default: ${DEFAULT-VALUE}, as upstream).")
  boolean enableCompaction;

  @Option(names = "--etcd-events-threshold", paramLabel = "COUNT", defaultValue = "1000000",
      description = "Delta events after which compaction runs, unless the Etcd's"
          + " spec.backup.snapshotCompaction.eventsThreshold says (default: ${DEFAULT-VALUE}).")
  long eventsThreshold;

  @Option(names = "--trigger-full-snapshot-threshold", paramLabel = "COUNT",
      defaultValue = "3000000",
      description = "Delta events past which the leader's agent takes a full snapshot instead"
          + " of a compaction Job, unless the Etcd's"
          + " spec.backup.snapshotCompaction.triggerFullSnapshotThreshold says (default:"
          + " ${DEFAULT-VALUE}).")
  long fullSnapshotThreshold;

  @Option(names = "--active-deadline-duration", paramLabel = "DURATION", defaultValue = "3h",
      converter = GoDurationConverter.class,
      description = "How long a compaction Job may run before it is killed"
          + " (default: ${DEFAULT-VALUE}).")
  Duration activeDeadline;

  @Mixin
  WebhookOptions webhook = new WebhookOptions();

  @Override
  public Integer call() throws InterruptedException, IOException {
    if (config != null) {
      List<String> ignored = OperatorConfigurationFile.apply(config, this,
          spec.commandLine().getParseResult());
      if (!ignored.isEmpty()) {
        spec.commandLine().getErr().println("operator: --config " + config + ": accepted, not"
            + " acted on: " + String.join(", ", ignored));
      }
    }
    LeaderElection.Timing timing;
    try {
      timing = new LeaderElection.Timing(leaseDuration, renewDeadline, retryPeriod);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    OperatorSettings settings;
    try {
      settings = new OperatorSettings(image == null ? defaultImage() : image, localStoreRoot,
          new CompactionSettings(enableCompaction, eventsThreshold, fullSnapshotThreshold,
              activeDeadline), localStoreLayout, corruptCheckPeriod);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    OperatorMetrics operatorMetrics = new OperatorMetrics();
    KubernetesClient client = KubeClients.create(kubeconfig,
        operatorMetrics.clientRequests()::addTo);
    if (installCrds) {
      CrdInstaller.install(client, "etcd-druid");
    }
    EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(
        Set.copyOf(namespaces), autoReconcile, leaderElection, leaderElectionNamespace, timing,
        settings), operatorMetrics);
    webhook.settings().ifPresent(operator::protectComponents);
    MetricsServer metrics = metricsPort < 0 ? null : new MetricsServer(
        new InetSocketAddress(metricsAddress, metricsPort), operator.metrics()::scrape, operator::ready);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (metrics != null) {
        metrics.close();
      }
      operator.close();
      client.close();
      stopped.countDown();
    }, "operator-shutdown"));
    operator.start();
    stopped.await();
    return 0;
  }

  /** The image of this build's version, as images/build.sh tags it. */
  static String defaultImage() {
    String version = Version.buildInfo().version();
    return "unknown".equals(version) ? OperatorSettings.DEFAULT_IMAGE
        : OperatorSettings.IMAGE_REPOSITORY + ":" + version;
  }
}
