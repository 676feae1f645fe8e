package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.api.agent.AgentJson;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Small helpers over the JDK's {@link HttpExchange}. */
final class Exchanges {

  private Exchanges() {
  }

  static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> params = new HashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null) {
      return params;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      params.put(URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return params;
  }

  static Optional<String> param(HttpExchange exchange, String name) {
    return Optional.ofNullable(query(exchange).get(name)).filter(v -> !v.isEmpty());
  }

  static String required(HttpExchange exchange, String name) throws HttpError {
    return param(exchange, name).orElseThrow(
        () -> new HttpError(400, "query parameter '" + name + "' is required"));
  }

  static void requireMethod(HttpExchange exchange, Set<String> allowed) throws HttpError {
    if (!allowed.contains(exchange.getRequestMethod())) {
      throw new HttpError(405, exchange.getRequestMethod() + " is not allowed here; use "
          + String.join(" or ", allowed));
    }
  }

  static void json(HttpExchange exchange, int status, Object body) throws IOException {
    send(exchange, status, "application/json", AgentJson.write(body));
  }

  static void text(HttpExchange exchange, int status, String body) throws IOException {
    send(exchange, status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
  }

  static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
