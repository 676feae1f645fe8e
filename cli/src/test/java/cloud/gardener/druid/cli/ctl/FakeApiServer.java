package cloud.gardener.druid.cli.ctl;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A minimal HTTP stand-in for the API server, for unit tests of exit codes and dry runs: GETs
 * answer what {@link #serve} registered (404 otherwise); every request is recorded.
 */
final class FakeApiServer implements AutoCloseable {

  private final HttpServer server;
  private final Map<String, String> bodies = new ConcurrentHashMap<>();
  final List<String> requests = new CopyOnWriteArrayList<>();

  FakeApiServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      requests.add(exchange.getRequestMethod() + " " + path);
      String body = "GET".equals(exchange.getRequestMethod()) ? bodies.get(path) : null;
      byte[] bytes = (body != null ? body : "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
          + "\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(body != null ? 200 : 404, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    server.start();
  }

  /** GET {@code path} answers {@code json}. */
  void serve(String path, String json) {
    bodies.put(path, json);
  }

  /** Requests other than GET: what a command changed. */
  List<String> writes() {
    return requests.stream().filter(r -> !r.startsWith("GET ")).toList();
  }

  Path kubeconfig(Path dir) throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, """
        apiVersion: v1
        kind: Config
        current-context: fake
        clusters:
        - name: fake
          cluster: {server: "http://127.0.0.1:%d"}
        users:
        - name: u
          user: {token: t}
        contexts:
        - name: fake
          context: {cluster: fake, user: u, namespace: team-a}
        """.formatted(server.getAddress().getPort()));
    return file;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
