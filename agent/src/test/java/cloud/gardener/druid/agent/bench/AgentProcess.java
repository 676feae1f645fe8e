package cloud.gardener.druid.agent.bench;

import static cloud.gardener.druid.agent.bench.AgentFootprintBenchmark.millis;
import static cloud.gardener.druid.agent.bench.AgentFootprintBenchmark.pause;

import cloud.gardener.druid.api.agent.AgentApi;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One agent JVM of the benchmark: its start time (System.nanoTime), its RSS sampler. */
final class AgentProcess implements AutoCloseable {

  /** From the JVM's start to the agent API's first answer, and to {@code /healthz} 200. */
  record Timing(long apiMillis, long healthzMillis) {
  }

  private final HttpClient http;
  final Process process;
  final long started;
  final URI clientUrl;
  final URI api;
  final Path log;
  final RssSampler rss;

  AgentProcess(HttpClient http, Process process, long started, URI clientUrl, URI api,
      Path log) {
    this.http = http;
    this.process = process;
    this.started = started;
    this.clientUrl = clientUrl;
    this.api = api;
    this.log = log;
    this.rss = RssSampler.start(process.pid());
  }

  Timing awaitStarted() {
    long api = -1;
    while (true) {
      alive();
      try {
        HttpResponse<String> health = get(AgentApi.HEALTHZ);
        if (api < 0) {
          api = millis(started);
        }
        if (health.statusCode() == 200) {
          return new Timing(api, millis(started));
        }
      } catch (IOException e) {
        // not listening yet
      }
      pause(Duration.ofMillis(5));
    }
  }

  /**
   * Waits for the agent's log line that its initialisation is done: polling its API every
   * few milliseconds instead would cost the agent CPU (and compilation) during the restore
   * that no operator causes (it polls every few seconds).
   */
  long awaitInitialised() throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      StringBuilder tail = new StringBuilder();
      byte[] chunk = new byte[64 * 1024];
      while (true) {
        alive();
        for (int n; (n = file.read(chunk)) > 0; ) {
          tail.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
        }
        if (tail.indexOf("initialisation done:") >= 0) {
          return millis(started);
        }
        int failed = tail.indexOf("initialisation failed:");
        if (failed >= 0) {
          throw new IllegalStateException("restore failed: " + tail.substring(failed,
              Math.min(tail.length(), failed + 500)) + "; see " + log);
        }
        // keep the last line, which may be incomplete
        int lastLine = tail.lastIndexOf("\n");
        if (lastLine >= 0) {
          tail.delete(0, lastLine + 1);
        }
        pause(Duration.ofMillis(5));
      }
    }
  }

  private void alive() {
    if (!process.isAlive()) {
      throw new IllegalStateException("the agent exited; see " + log);
    }
  }

  HttpResponse<String> get(String path) throws IOException {
    return send(HttpRequest.newBuilder(api.resolve(path)).GET());
  }

  HttpResponse<String> post(String path) throws IOException {
    return send(HttpRequest.newBuilder(api.resolve(path))
        .POST(HttpRequest.BodyPublishers.noBody()));
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
    try {
      return http.send(request.timeout(Duration.ofMinutes(30)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** SIGTERM until the process exited, in milliseconds. */
  long stop() throws InterruptedException {
    long t0 = System.nanoTime();
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the agent did not stop within 60 s; see " + log);
    }
    return millis(t0);
  }

  @Override
  public void close() throws InterruptedException {
    rss.close();
    List<ProcessHandle> children = process.descendants().toList();
    if (process.isAlive()) {
      process.destroy();
      process.waitFor(60, TimeUnit.SECONDS);
    }
    process.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
  }
}
