package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.controlplane.Credentials;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of the kubelet API the API server proxies {@code pods/log} to:
 * {@code GET /containerLogs/<namespace>/<pod>/<container>}, over HTTPS on the node's loopback
 * address, for clients with the API server's kubelet client certificate only. exec, attach,
 * port-forward and run need a streaming upgrade (SPDY or WebSocket) that the JDK's server
 * cannot make: they are answered 501.
 */
final class KubeletServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KubeletServer.class);

  private final HttpsServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "kubelet-api");
    t.setDaemon(true);
    return t;
  });
  private final ContainerLogs logs;

  private KubeletServer(HttpsServer server, ContainerLogs logs) {
    this.server = server;
    this.logs = logs;
  }

  static KubeletServer start(String address, Credentials.Kubelet credentials,
      ContainerLogs logs) {
    try {
      HttpsServer server = HttpsServer.create(new InetSocketAddress(address, 0), 0);
      SSLContext tls = KubeletTls.context(credentials);
      server.setHttpsConfigurator(new HttpsConfigurator(tls) {
        @Override
        public void configure(HttpsParameters params) {
          var ssl = tls.getDefaultSSLParameters();
          ssl.setNeedClientAuth(true);
          params.setSSLParameters(ssl);
        }
      });
      KubeletServer kubelet = new KubeletServer(server, logs);
      server.setExecutor(kubelet.threads);
      server.createContext("/containerLogs/", kubelet::containerLogs);
      for (String streaming : List.of("/exec/", "/attach/", "/portForward/", "/run/")) {
        server.createContext(streaming, KubeletServer::notServed);
      }
      server.createContext("/", exchange -> {
        try (exchange) {
          reply(exchange, 404, "404 page not found");
        }
      });
      server.start();
      return kubelet;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve the kubelet API on " + address, e);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  private void containerLogs(HttpExchange exchange) throws IOException {
    try (exchange) {
      String[] parts = exchange.getRequestURI().getPath().split("/");
      if (parts.length != 5 || !"GET".equals(exchange.getRequestMethod())) {
        reply(exchange, 404, "404 page not found");
        return;
      }
      LogQuery query;
      try {
        query = LogQuery.parse(exchange.getRequestURI().getRawQuery(), Instant.now());
      } catch (RuntimeException e) {
        reply(exchange, 400, "invalid query: " + e.getMessage());
        return;
      }
      serve(exchange, parts[2], parts[3], parts[4], query);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      LOG.debug("log request ended: {}", e.toString()); // e.g. a follower went away
    }
  }

  private void serve(HttpExchange exchange, String ns, String pod, String container,
      LogQuery query) throws IOException, InterruptedException {
    Optional<ContainerLog> log = logs.find(ns, pod, container);
    if (log.isEmpty()) {
      reply(exchange, 404, "container \"" + container + "\" in pod \"" + pod
          + "\" is not available");
      return;
    }
    Optional<Path> file = query.previous() ? log.get().previous() : log.get().current();
    if (file.isEmpty()) {
      reply(exchange, 400, (query.previous() ? "previous terminated container \""
          : "container \"") + container + "\" in pod \"" + pod + "\" not found");
      return;
    }
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(200, 0); // chunked: a follower's lines come as they are written
    try (OutputStream body = exchange.getResponseBody()) {
      new LogStream(log.get(), query, body).serve(file.get());
    }
  }

  /** kubectl shows this after "unable to upgrade connection:". */
  private static void notServed(HttpExchange exchange) throws IOException {
    try (exchange) {
      reply(exchange, 501, "the node simulator's kubelet API serves container logs only, not "
          + exchange.getRequestURI().getPath().split("/")[1]);
    }
  }

  private static void reply(HttpExchange exchange, int status, String message)
      throws IOException {
    byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
