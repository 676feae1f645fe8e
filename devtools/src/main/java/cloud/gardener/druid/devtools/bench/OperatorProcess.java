package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.testenv.controlplane.FreePorts;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import cloud.gardener.druid.testenv.process.ManagedProcess;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code druid operator} in its own JVM (this build's classpath, the chart's JVM flags),
 * talking to the local API server only; its metrics port on 127.0.0.1.
 */
final class OperatorProcess implements AutoCloseable {

  /** How to launch it; the same for every start. */
  record Launch(List<String> jvmOptions, Path kubeconfig, Path storeRoot, String memberImage,
      boolean leaderElection, String namespace, Path workDir) {
  }

  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final ManagedProcess process;
  private final int metricsPort;

  private OperatorProcess(String name, ManagedProcess process, int metricsPort) {
    this.name = name;
    this.process = process;
    this.metricsPort = metricsPort;
  }

  static OperatorProcess start(Launch launch, ProcessLedger ledger) {
    return start(launch, "operator", ledger);
  }

  /**
   * Starts one replica named {@code name}: its log is {@code logs/<name>.log} and its leader
   * identity {@code <name>-<random>} (from {@code POD_NAME}, as in a pod).
   */
  static OperatorProcess start(Launch launch, String name, ProcessLedger ledger) {
    int port = FreePorts.next();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(launch.jvmOptions());
    command.addAll(List.of("-cp", absoluteClasspath(),
        "cloud.gardener.druid.cli.Druid", "operator",
        "--kubeconfig", launch.kubeconfig().toString(),
        "--namespace", launch.namespace(),
        "--image", launch.memberImage(),
        "--local-store-root", launch.storeRoot().toString(),
        "--metrics-address", "127.0.0.1", "--metrics-port", Integer.toString(port),
        launch.leaderElection() ? "--leader-election" : "--no-leader-election"));
    if (launch.leaderElection()) {
      command.addAll(List.of("--leader-election-namespace", launch.namespace()));
    }
    Map<String, String> env = Map.of(
        "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
        "HOME", launch.workDir().toString(), "POD_NAME", name);
    ManagedProcess process = ManagedProcess.start(name, command, env, launch.workDir(),
        launch.workDir().resolve("logs").resolve(name + ".log"), ledger);
    return new OperatorProcess(name, process, port);
  }

  /** It runs in the work directory, so relative entries (java -jar cli/target/…) won't do. */
  private static String absoluteClasspath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(entry -> Path.of(entry).toAbsolutePath().toString())
        .collect(Collectors.joining(File.pathSeparator));
  }

  String name() {
    return name;
  }

  /** Whether {@code holder} (a lease's holder identity, {@code <name>-<random>}) is this one. */
  boolean holds(String holder) {
    int dash = holder.lastIndexOf('-');
    return dash > 0 && holder.substring(0, dash).equals(name);
  }

  long pid() {
    return process.pid();
  }

  /** Waits for /readyz; fails at once when the process has exited. */
  void awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready()) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the operator exited with "
            + process.exitCode().orElse(-1) + "; see its log");
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the operator was not ready within " + timeout);
      }
      Thread.sleep(50); // polling an HTTP endpoint
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Whether it answers /readyz with 200 now. */
  boolean isReady() throws InterruptedException {
    return ready();
  }

  /** SIGKILL of the operator's process group, as a node's OOM killer or a crash would end it. */
  void kill() {
    process.kill();
    process.stop(Duration.ZERO);
  }

  private boolean ready() throws InterruptedException {
    try {
      return get("/readyz").statusCode() == 200;
    } catch (IOException notListeningYet) {
      return false;
    }
  }

  PrometheusScrape scrapeMetrics() throws InterruptedException {
    try {
      HttpResponse<String> response = get("/metrics");
      if (response.statusCode() != 200) {
        throw new IllegalStateException("operator /metrics answered " + response.statusCode());
      }
      return PrometheusScrape.parse(response.body());
    } catch (IOException e) {
      throw new IllegalStateException("cannot scrape the operator's /metrics: " + e, e);
    }
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + metricsPort + path))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** SIGTERM, as the kubelet stops a pod; SIGKILL after the grace period. */
  @Override
  public void close() {
    process.stop(Duration.ofSeconds(30));
  }
}
