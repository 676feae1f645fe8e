package cloud.gardener.druid.testenv;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.controlplane.LocalControlPlane;
import cloud.gardener.druid.testenv.node.DruidImage;
import cloud.gardener.druid.testenv.node.EtcdImage;
import cloud.gardener.druid.testenv.node.HostsFile;
import cloud.gardener.druid.testenv.node.ImageRuntime;
import cloud.gardener.druid.testenv.node.OciImage;
import cloud.gardener.druid.testenv.node.NodeSimulator;
import cloud.gardener.druid.testenv.node.NodeSimulatorConfig;
import cloud.gardener.druid.testenv.node.ShellImage;
import cloud.gardener.druid.testenv.process.ConnectionAudit;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A whole local Kubernetes: {@link LocalControlPlane} plus a {@link NodeSimulator}, an admin
 * client, the ledger of every process started and a {@link ConnectionAudit} sampling them.
 */
public final class LocalCluster implements AutoCloseable {

  private final Path workDir;
  private final ProcessLedger ledger;
  private final ConnectionAudit audit;
  private final LocalControlPlane controlPlane;
  private final KubernetesClient client;
  private final NodeSimulator simulator;

  private LocalCluster(Path workDir, ProcessLedger ledger, ConnectionAudit audit,
      LocalControlPlane controlPlane, KubernetesClient client, NodeSimulator simulator) {
    this.workDir = workDir;
    this.ledger = ledger;
    this.audit = audit;
    this.controlPlane = controlPlane;
    this.client = client;
    this.simulator = simulator;
  }

  /**
   * How to start a cluster.
   *
   * @param workDir    kubeconfig, logs, pods, volumes
   * @param druidImage how our own image runs (jar or classpath)
   * @param ledgerFile where to keep the list of started processes, or null for memory only
   */
  public record Options(Path workDir, DruidImage druidImage, Path ledgerFile,
      List<OciImage> ociImages) {

    public Options(Path workDir, DruidImage druidImage, Path ledgerFile) {
      this(workDir, druidImage, ledgerFile, List.of());
    }

    /** Also runs these OCI images with runc; they take precedence over the mappings. */
    public Options withOciImages(List<OciImage> images) {
      return new Options(workDir, druidImage, ledgerFile, List.copyOf(images));
    }
  }

  public static LocalCluster start(Options options) {
    Path workDir = options.workDir().toAbsolutePath();
    mkdirs(workDir);
    ProcessLedger ledger = options.ledgerFile() == null ? ProcessLedger.inMemory()
        : ProcessLedger.persistedIn(options.ledgerFile());
    ConnectionAudit audit = new ConnectionAudit(ledger).startSampling(500);
    LocalControlPlane controlPlane = null;
    KubernetesClient client = null;
    try {
      controlPlane = LocalControlPlane.start(workDir, ledger);
      client = clientFor(controlPlane.kubeconfig(), null);
      List<ImageRuntime> runtimes = new java.util.ArrayList<>(options.ociImages());
      runtimes.addAll(List.of(new EtcdImage(ControlPlaneBinaries.directory()),
          options.druidImage(), new ShellImage()));
      NodeSimulator simulator = NodeSimulator.start(client, new NodeSimulatorConfig(
          NodeSimulatorConfig.DEFAULT_NODE_NAME, workDir, controlPlane.apiServerPort(), runtimes,
          HostsFile.system("run-" + ProcessHandle.current().pid()),
          controlPlane.kubeletCredentials(), volumeRefresh()), ledger);
      return new LocalCluster(workDir, ledger, audit, controlPlane, client, simulator);
    } catch (RuntimeException e) {
      if (client != null) {
        client.close();
      }
      if (controlPlane != null) {
        controlPlane.close();
      }
      audit.close();
      throw e;
    }
  }

  /**
   * How soon the node gives pods a changed Secret or ConfigMap: {@code
   * -Ddruid.node.volumeRefreshSeconds} (a kubelet takes up to a minute or two), 2 s by default
   * so that tests of a rotation wait little.
   */
  static java.time.Duration volumeRefresh() {
    return java.time.Duration.ofMillis((long) (1000
        * Double.parseDouble(System.getProperty("druid.node.volumeRefreshSeconds", "2"))));
  }

  /** A client of the admin user, for {@code namespace} (null: the kubeconfig's default). */
  public static KubernetesClient clientFor(Path kubeconfig, String namespace) {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      if (namespace != null) {
        config.setNamespace(namespace);
      }
      return new KubernetesClientBuilder().withConfig(config).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public KubernetesClient client() {
    return client;
  }

  public KubernetesClient newClient(String namespace) {
    return clientFor(kubeconfig(), namespace);
  }

  public Path kubeconfig() {
    return controlPlane.kubeconfig();
  }

  public Path workDir() {
    return workDir;
  }

  public LocalControlPlane controlPlane() {
    return controlPlane;
  }

  public NodeSimulator simulator() {
    return simulator;
  }

  public ProcessLedger ledger() {
    return ledger;
  }

  public ConnectionAudit connectionAudit() {
    return audit;
  }

  /** Stops pods first, then the control plane. */
  @Override
  public void close() {
    try {
      simulator.close();
    } finally {
      client.close();
      controlPlane.close();
      audit.close();
    }
  }

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
