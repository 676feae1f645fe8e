package cloud.gardener.druid.operator.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operator process's HTTP endpoint (upstream's metrics port, 8080 by default):
 * {@code GET /metrics} (Prometheus text format 0.0.4), {@code /healthz} (200 while the process
 * serves) and {@code /readyz} (200 once the operator has started, else 503).
 */
public final class MetricsServer implements AutoCloseable {

  public static final int DEFAULT_PORT = 8080;
  public static final String METRICS = "/metrics";
  public static final String HEALTHZ = "/healthz";
  public static final String READYZ = "/readyz";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "metrics-http");
    t.setDaemon(true);
    return t;
  });

  /** Listens on {@code address} (port 0: any free port) until closed. */
  public MetricsServer(InetSocketAddress address, Supplier<String> metrics,
      BooleanSupplier ready) throws IOException {
    server = HttpServer.create(address, 16);
    server.setExecutor(executor);
    server.createContext(METRICS, get(e -> send(e, 200,
        "text/plain; version=0.0.4; charset=utf-8", metrics.get())));
    server.createContext(HEALTHZ, get(e -> send(e, 200, "text/plain", "ok")));
    server.createContext(READYZ, get(e -> {
      boolean isReady = ready.getAsBoolean();
      send(e, isReady ? 200 : 503, "text/plain", isReady ? "ok" : "not ready");
    }));
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static HttpHandler get(HttpHandler handler) {
    return exchange -> {
      try (exchange) {
        if (!"GET".equals(exchange.getRequestMethod())
            && !"HEAD".equals(exchange.getRequestMethod())) {
          send(exchange, 405, "text/plain", "method not allowed");
          return;
        }
        handler.handle(exchange);
      }
    };
  }

  private static void send(HttpExchange exchange, int code, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
