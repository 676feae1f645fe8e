package cloud.gardener.druid.testenv.prometheus;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.controlplane.FreePorts;
import cloud.gardener.druid.testenv.process.BuildScript;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server on 127.0.0.1 and its {@code promtool}, both built by
 * {@code testenv/prometheus/build.sh} from the Go module proxy (cached under
 * {@code ~/.cache/etcd-druid/bin/prometheus-<version>}). The server scrapes what its
 * configuration names (the tests write static targets on loopback addresses) and answers
 * the HTTP API; its log goes to {@code <workDir>/prometheus.log}.
 */
public final class Prometheus implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static Path binaries;

  private final Process process;
  private final URI url;
  private final Path log;

  /** The output of one promtool run. */
  public record Result(int exitCode, String output) {

    public Result orThrow() {
      if (exitCode != 0) {
        throw new IllegalStateException("promtool failed (exit " + exitCode + "):\n" + output);
      }
      return this;
    }
  }

  private Prometheus(Process process, URI url, Path log) {
    this.process = process;
    this.url = url;
    this.log = log;
  }

  /** The directory with {@code prometheus} and {@code promtool}; built on first use. */
  public static synchronized Path binaries() {
    if (binaries == null) {
      binaries = BuildScript.run(ControlPlaneBinaries.repoRoot()
          .resolve("testenv/prometheus/build.sh"), List.of(), System.err::println);
    }
    return binaries;
  }

  /** Runs {@code promtool} with these arguments in {@code dir}. */
  public static Result promtool(Path dir, String... args) {
    List<String> argv = new ArrayList<>(List.of(binaries().resolve("promtool").toString()));
    argv.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("promtool " + String.join(" ", args) + " did not exit");
      }
      return new Result(p.exitValue(), out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Starts Prometheus with {@code config} (prometheus.yml; relative paths in it resolve in
   * {@code workDir}) on a free port of 127.0.0.1 and waits until it is ready.
   */
  public static Prometheus start(Path workDir, String config) {
    try {
      Files.createDirectories(workDir);
      Path configFile = Files.writeString(workDir.resolve("prometheus.yml"), config);
      int port = FreePorts.next();
      Path log = workDir.resolve("prometheus.log");
      Process process = new ProcessBuilder(binaries().resolve("prometheus").toString(),
          "--config.file=" + configFile, "--storage.tsdb.path=" + workDir.resolve("data"),
          "--web.listen-address=127.0.0.1:" + port, "--log.level=info")
          .directory(workDir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
          .start();
      Prometheus prometheus = new Prometheus(process, URI.create("http://127.0.0.1:" + port),
          log);
      try {
        prometheus.awaitReady(Duration.ofMinutes(2));
      } catch (RuntimeException e) {
        prometheus.close();
        throw e;
      }
      return prometheus;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start prometheus", e);
    }
  }

  private void awaitReady(Duration atMost) {
    Instant deadline = Instant.now().plus(atMost);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("prometheus exited (" + process.exitValue()
            + "); see " + log);
      }
      try {
        if (HTTP.send(HttpRequest.newBuilder(url.resolve("/-/ready"))
            .timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      sleep();
    }
    throw new IllegalStateException("prometheus not ready within " + atMost + "; see " + log);
  }

  private static void sleep() {
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public URI url() {
    return url;
  }

  public Path log() {
    return log;
  }

  /** {@code data.result} of an instant query (fails on an error answer). */
  public JsonNode query(String promql) {
    return api("/api/v1/query?query=" + encode(promql)).get("result");
  }

  /** The syntax tree Prometheus parses the expression into ({@code /api/v1/parse_query}). */
  public JsonNode parse(String promql) {
    return api("/api/v1/parse_query?query=" + encode(promql));
  }

  /** {@code data} of a GET of the HTTP API (fails on an error answer). */
  public JsonNode api(String pathAndQuery) {
    try {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
          url.resolve(pathAndQuery)).timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString());
      JsonNode body = JSON.readTree(response.body());
      if (response.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
        throw new IllegalStateException("prometheus answered " + response.statusCode() + " to "
            + pathAndQuery + ": " + response.body());
      }
      return body.get("data");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
