package cloud.gardener.druid.agent.testing;

import cloud.gardener.druid.agent.AgentMain;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * {@code druid agent} as a separate JVM (so tests can kill it), with its etcd child. Closing
 * stops it with SIGTERM and kills whatever of it is left, also after a failed test.
 */
public final class AgentProcess implements AutoCloseable {


  private final HttpClient http;
  private final String scheme;
  private final Process process;
  private final String host;
  private final int serverPort;
  private final Path log;

  public AgentProcess(List<String> args, String host, int serverPort, Path log)
      throws IOException {
    this(args, host, serverPort, log, null);
  }

  /** With {@code tls} the agent API is called over HTTPS with that client identity. */
  public AgentProcess(List<String> args, String host, int serverPort, Path log,
      javax.net.ssl.SSLContext tls) throws IOException {
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
    if (tls != null) {
      builder.sslContext(tls);
    }
    this.http = builder.build();
    this.scheme = tls == null ? "http" : "https";
    this.host = host;
    this.serverPort = serverPort;
    this.log = log;
    List<String> command = new ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        AgentMain.class.getName()));
    command.addAll(args);
    process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  /** A directory for logs that outlives the test's temporary directory (target/it-logs). */
  public static Path logDir(String test) throws IOException {
    Path dir = Paths.get("target", "it-logs", test);
    cloud.gardener.druid.agent.util.Files2.deleteTree(dir);
    return Files.createDirectories(dir);
  }

  public Process process() {
    return process;
  }

  public String log() throws IOException {
    return Files.readString(log);
  }

  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofMinutes(5)).GET()
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> post(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofMinutes(5))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create(scheme + "://" + host + ":" + serverPort + path);
  }

  public void awaitReady(Duration timeout) {
    Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .failFast("the agent exited; see " + log, () -> !process.isAlive())
        .until(() -> get("/readyz").statusCode() == 200);
  }

  /** SIGTERM and wait; returns the exit code. */
  public int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      kill();
    }
    return process.waitFor();
  }

  /** SIGKILL to the agent and its etcd, as when the node dies. */
  public void kill() {
    List<ProcessHandle> children = process.descendants().toList();
    process.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    List<ProcessHandle> children = process.descendants().toList();
    if (process.isAlive()) {
      stop();
    }
    children.forEach(ProcessHandle::destroyForcibly);
  }
}
