package cloud.gardener.druid.agent.copy;

import cloud.gardener.druid.api.CopyProgress;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves how far the copy is, plain text, on {@code GET $POD_IP:}{@link CopyProgress#PORT}
 * {@link CopyProgress#PATH} (200 with the phrase, 204 before there is one), for the
 * operator's EtcdCopyBackupsTask status. It answers nothing else and holds nothing secret: the
 * counts also go to the log. A copy whose port is taken copies anyway, without it.
 */
final class CopyProgressServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CopyProgressServer.class);

  private final Optional<HttpServer> server;

  private CopyProgressServer(Optional<HttpServer> server) {
    this.server = server;
  }

  /** Listens on {@code $POD_IP} (the loopback address without it). */
  static CopyProgressServer start(Supplier<Optional<String>> progress) {
    String host = Optional.ofNullable(System.getenv("POD_IP")).filter(h -> !h.isBlank())
        .orElse("127.0.0.1");
    return start(new InetSocketAddress(host, CopyProgress.PORT), progress);
  }

  static CopyProgressServer start(InetSocketAddress address,
      Supplier<Optional<String>> progress) {
    try {
      HttpServer http = HttpServer.create(address, 4);
      http.createContext(CopyProgress.PATH, e -> answer(e, progress));
      http.setExecutor(Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "copy-progress");
        t.setDaemon(true);
        return t;
      }));
      http.start();
      return new CopyProgressServer(Optional.of(http));
    } catch (IOException | RuntimeException e) {
      LOG.warn("progress not served on {}: {}", address, e.toString());
      return new CopyProgressServer(Optional.empty());
    }
  }

  /** The bound port, e.g. for a test that asked for port 0. */
  Optional<Integer> port() {
    return server.map(s -> s.getAddress().getPort());
  }

  private static void answer(HttpExchange e, Supplier<Optional<String>> progress)
      throws IOException {
    try (e) {
      if (!"GET".equals(e.getRequestMethod()) || !CopyProgress.PATH.equals(
          e.getRequestURI().getPath())) {
        e.sendResponseHeaders(404, -1);
        return;
      }
      Optional<String> now = progress.get();
      if (now.isEmpty()) {
        e.sendResponseHeaders(204, -1);
        return;
      }
      byte[] body = now.get().getBytes(StandardCharsets.UTF_8);
      e.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      e.sendResponseHeaders(200, body.length);
      try (OutputStream out = e.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.ifPresent(s -> s.stop(0));
  }
}
