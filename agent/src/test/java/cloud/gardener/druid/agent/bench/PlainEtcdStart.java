package cloud.gardener.druid.agent.bench;

import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.testing.EtcdBinaries;
import cloud.gardener.druid.agent.util.Files2;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A plain etcd's own cold start, as a fresh single member (what the agent starts on an empty
 * data dir): exec until {@code /health} answers 200 with health true, polled every 5 ms as
 * the benchmark polls the agent's {@code /healthz}.
 */
final class PlainEtcdStart {
  private static final String HOST = "127.0.0.1";

  private PlainEtcdStart() {
  }

  static long millis(HttpClient http, Path dir, Path log) throws Exception {
    URI clientUrl = URI.create("http://" + HOST + ":" + LoopbackPorts.on(HOST));
    URI peerUrl = URI.create("http://" + HOST + ":" + LoopbackPorts.on(HOST));
    HttpRequest health = HttpRequest.newBuilder(clientUrl.resolve("/health"))
        .timeout(Duration.ofSeconds(5)).GET().build();
    long t0 = System.nanoTime();
    try (EtcdProcess etcd = EtcdProcess.start(EtcdBinaries.dir().resolve("etcd"), List.of(
        "--name=plain", "--data-dir=" + dir.resolve("plain.etcd"),
        "--listen-client-urls=" + clientUrl, "--advertise-client-urls=" + clientUrl,
        "--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster=plain=" + peerUrl),
        ProcessBuilder.Redirect.appendTo(log.toFile()))) {
      long deadline = t0 + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline) {
        if (!etcd.isAlive()) {
          throw new IllegalStateException("the plain etcd exited; see " + log);
        }
        try {
          HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());
          if (answer.statusCode() == 200 && answer.body().contains("\"health\":\"true\"")) {
            return (System.nanoTime() - t0) / 1_000_000;
          }
        } catch (IOException e) {
          // not listening yet
        }
        Thread.sleep(5);
      }
      throw new IllegalStateException("the plain etcd was not healthy within 60 s; see " + log);
    } finally {
      Files2.deleteTree(dir);
    }
  }
}
