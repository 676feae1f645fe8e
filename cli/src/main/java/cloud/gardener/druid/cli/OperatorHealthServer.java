package cloud.gardener.druid.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The operator's health endpoints for kubelet probes and scrapers: {@code /healthz} (the JVM
 * serves requests), {@code /readyz} (the controllers have started) and {@code /metrics}
 * (Prometheus text: {@code druid_operator_ready}).
 */
final class OperatorHealthServer implements AutoCloseable {

  private final HttpServer server;
  private final AtomicBoolean ready = new AtomicBoolean();

  private OperatorHealthServer(HttpServer server) {
    this.server = server;
  }

  /** Listens on {@code address:port}. */
  static OperatorHealthServer start(String address, int port) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 16);
      OperatorHealthServer health = new OperatorHealthServer(server);
      server.createContext("/healthz", exchange -> respond(exchange, 200, "ok\n"));
      server.createContext("/readyz", exchange -> respond(exchange,
          health.ready.get() ? 200 : 503, health.ready.get() ? "ok\n" : "starting\n"));
      server.createContext("/metrics", exchange -> respond(exchange, 200,
          "# HELP druid_operator_ready 1 once the controllers have started.\n"
              + "# TYPE druid_operator_ready gauge\n"
              + "druid_operator_ready " + (health.ready.get() ? 1 : 0) + "\n"));
      server.start();
      return health;
    } catch (IOException e) {
      throw new UserError("cannot listen on health address " + address + ":" + port + ": "
          + e.getMessage());
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  void markReady() {
    ready.set(true);
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
