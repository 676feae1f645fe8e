package cloud.gardener.druid.testenv.faults;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.controlplane.FreePorts;
import cloud.gardener.druid.testenv.process.BuildScript;
import cloud.gardener.druid.testenv.process.ManagedProcess;
import cloud.gardener.druid.testenv.process.ProcessLedger;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Toxiproxy server ({@code testenv/toxiproxy/build.sh}, built from the Go module proxy and
 * cached by version) on 127.0.0.1: TCP proxies in front of loopback services, and faults on
 * them ("toxics": {@code timeout}, {@code reset_peer}, {@code bandwidth}, {@code latency}, …)
 * switched on and off over its HTTP API while clients use the proxy.
 */
public final class ToxiproxyServer implements AutoCloseable {

  private static final Duration STARTUP = Duration.ofMinutes(1);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();
  private static Path binary;

  private final ManagedProcess process;
  private final String api;

  private ToxiproxyServer(ManagedProcess process, int port) {
    this.process = process;
    this.api = "http://127.0.0.1:" + port;
  }

  /** The server binary; builds it on first use in this JVM. */
  public static synchronized Path binary() {
    if (binary == null) {
      binary = BuildScript.run(ControlPlaneBinaries.repoRoot()
          .resolve("testenv/toxiproxy/build.sh"), List.of(), System.err::println);
    }
    return binary;
  }

  /** Starts it with its log at {@code workDir/logs/toxiproxy.log}; returns once it answers. */
  public static ToxiproxyServer start(Path workDir, ProcessLedger ledger)
      throws InterruptedException {
    int port = FreePorts.next();
    ManagedProcess p = ManagedProcess.start("toxiproxy", List.of(binary().toString(),
        "-host", "127.0.0.1", "-port", Integer.toString(port)), Map.of(), workDir,
        workDir.resolve("logs").resolve("toxiproxy.log"), ledger);
    ToxiproxyServer server = new ToxiproxyServer(p, port);
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (!server.answers()) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        server.close();
        throw new IllegalStateException("toxiproxy did not answer at " + server.api
            + "; see " + workDir.resolve("logs/toxiproxy.log"));
      }
      Thread.sleep(50); // polling its API until it listens
    }
    return server;
  }

  private boolean answers() throws InterruptedException {
    try {
      return send("GET", "/version", null) == 200;
    } catch (IOException notYet) {
      return false;
    }
  }

  /** A proxy {@code name} on a free 127.0.0.1 port in front of {@code upstream}; its port. */
  public int proxy(String name, String upstream) throws IOException, InterruptedException {
    int port = FreePorts.next();
    expect(201, "POST", "/proxies", "{\"name\":\"" + name + "\",\"listen\":\"127.0.0.1:"
        + port + "\",\"upstream\":\"" + upstream + "\",\"enabled\":true}");
    return port;
  }

  /**
   * Turns a fault on: toxic {@code toxic} of {@code type} on the proxy's {@code stream}
   * ({@code upstream}: client to server, {@code downstream}: back) with its attributes.
   */
  public void addToxic(String proxy, String toxic, String type, String stream,
      Map<String, Long> attributes) throws IOException, InterruptedException {
    String attrs = attributes.entrySet().stream()
        .map(e -> "\"" + e.getKey() + "\":" + e.getValue()).collect(Collectors.joining(","));
    expect(200, "POST", "/proxies/" + proxy + "/toxics", "{\"name\":\"" + toxic
        + "\",\"type\":\"" + type + "\",\"stream\":\"" + stream
        + "\",\"toxicity\":1.0,\"attributes\":{" + attrs + "}}");
  }

  /** Turns the fault off. */
  public void removeToxic(String proxy, String toxic) throws IOException, InterruptedException {
    expect(204, "DELETE", "/proxies/" + proxy + "/toxics/" + toxic, null);
  }

  private void expect(int status, String method, String path, String body)
      throws IOException, InterruptedException {
    int got = send(method, path, body);
    if (got != status) {
      throw new IllegalStateException("toxiproxy " + method + " " + path + " answered " + got);
    }
  }

  private int send(String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api + path))
        .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
        .header("User-Agent", "druid-testenv"); // its API refuses browsers' requests
    b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
        : b.method(method, HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Override
  public void close() {
    process.stop(Duration.ofSeconds(5));
  }
}
