package cloud.gardener.druid.testenv.controlplane;

import cloud.gardener.druid.testenv.process.ManagedProcess;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * etcd, kube-apiserver and kube-controller-manager on free 127.0.0.1 ports, started together
 * (the API server and controller manager retry their backends until these are up), with logs in
 * {@code <workDir>/logs} and an admin kubeconfig at {@code <workDir>/kubeconfig}.
 */
public final class LocalControlPlane implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LocalControlPlane.class);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  /** Where kube-apiserver is in {@link #processes} (etcd, kube-apiserver, controller manager). */
  private static final int API_SERVER = 1;

  private final Path workDir;
  private final Credentials credentials;
  private final int apiServerPort;
  private final Path kubeconfig;
  private final List<ManagedProcess> processes = new ArrayList<>();
  private List<String> apiServerCommand;
  private ProcessLedger ledger;

  private LocalControlPlane(Path workDir, Credentials credentials, int apiServerPort,
      Path kubeconfig) {
    this.workDir = workDir;
    this.credentials = credentials;
    this.apiServerPort = apiServerPort;
    this.kubeconfig = kubeconfig;
  }

  /** Starts the three processes and returns once the API server is ready. */
  public static LocalControlPlane start(Path workDir, ProcessLedger ledger) {
    Path bin = ControlPlaneBinaries.directory();
    Path dir = workDir.toAbsolutePath();
    Credentials credentials = Credentials.create(dir.resolve("pki"));
    int apiPort = FreePorts.next();
    String server = "https://127.0.0.1:" + apiPort;
    Path kubeconfig = Kubeconfig.write(dir.resolve("kubeconfig"), server,
        credentials.servingCertPem(), credentials.adminToken());
    LocalControlPlane plane = new LocalControlPlane(dir, credentials, apiPort, kubeconfig);
    try {
      plane.startProcesses(bin, ledger);
      plane.awaitReady();
      return plane;
    } catch (RuntimeException e) {
      plane.close();
      throw e;
    }
  }

  private void startProcesses(Path bin, ProcessLedger ledger) {
    int etcdPort = FreePorts.next();
    int kcmPort = FreePorts.next();
    this.ledger = ledger;
    processes.add(launch("etcd", ControlPlaneFlags.etcd(bin, workDir.resolve("etcd"), etcdPort,
        FreePorts.next()), ledger));
    apiServerCommand = ControlPlaneFlags.apiServer(bin, credentials, etcdPort, apiServerPort);
    processes.add(launch("kube-apiserver", apiServerCommand, ledger));
    processes.add(launch("kube-controller-manager", ControlPlaneFlags.controllerManager(bin,
        credentials, kubeconfig, kcmPort, workDir.resolve("kcm-certs")), ledger));
  }

  /**
   * SIGKILL of kube-apiserver's process group, as a crash or an OOM kill ends it; etcd and the
   * controller manager keep running. {@link #restartApiServer} brings it back.
   */
  public synchronized void killApiServer() {
    ManagedProcess apiServer = processes.get(API_SERVER);
    apiServer.kill();
    apiServer.stop(Duration.ZERO);
  }

  /**
   * Starts kube-apiserver again with the same command line: the same port, certificates and
   * etcd (so every object and resourceVersion is as before), as a kubelet restarts a static
   * pod; returns once it answers {@code /readyz}.
   */
  public synchronized void restartApiServer() {
    if (processes.get(API_SERVER).isAlive()) {
      throw new IllegalStateException("kube-apiserver is running; kill it first");
    }
    processes.set(API_SERVER, launch("kube-apiserver", apiServerCommand, ledger));
    awaitReady();
  }

  private ManagedProcess launch(String name, List<String> command, ProcessLedger ledger) {
    Map<String, String> env = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
        "HOME", workDir.toString());
    return ManagedProcess.start(name, command, env, workDir,
        workDir.resolve("logs").resolve(name + ".log"), ledger);
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!apiServerReady()) {
      for (ManagedProcess p : processes) {
        if (!p.isAlive()) {
          throw new IllegalStateException(p.name() + " exited with " + p.exitCode().orElse(-1)
              + " while starting; see " + workDir.resolve("logs").resolve(p.name() + ".log"));
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("kube-apiserver not ready after " + READY_TIMEOUT
            + "; see " + workDir.resolve("logs"));
      }
      pause();
    }
    LOG.debug("kube-apiserver ready at {}", apiServerUrl());
  }

  private boolean apiServerReady() {
    HttpRequest request = HttpRequest.newBuilder(URI.create(apiServerUrl() + "/readyz"))
        .header("Authorization", "Bearer " + credentials.adminToken())
        .timeout(Duration.ofSeconds(2))
        .build();
    try {
      return InsecureHttp.client().send(request, HttpResponse.BodyHandlers.discarding())
          .statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for kube-apiserver", e);
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100); // polling interval of a readiness wait, not a synchronisation
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public String apiServerUrl() {
    return "https://127.0.0.1:" + apiServerPort;
  }

  public int apiServerPort() {
    return apiServerPort;
  }

  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The API server's certificate, which is also the CA that pods trust. */
  public Path caCertificate() {
    return credentials.servingCert();
  }

  /** What the node's kubelet API serves with and whom it trusts. */
  public Credentials.Kubelet kubeletCredentials() {
    return credentials.kubelet();
  }

  public String adminToken() {
    return credentials.adminToken();
  }

  public Path workDir() {
    return workDir;
  }

  /** Stops the controller manager, the API server and etcd, in that order. */
  @Override
  public synchronized void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).stop(Duration.ofSeconds(5));
    }
    processes.clear();
  }
}
