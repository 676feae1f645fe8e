package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.agent.tls.TlsContexts;
import cloud.gardener.druid.agent.tls.TlsFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * etcd's HTTP endpoints on its client URL: {@code /version} and the gRPC gateway
 * ({@code /v3/...}, JSON), for the calls jetcd 0.8.5 does not have (promote, downgrade, the
 * status fields of etcd 3.6). One HTTP client per member client, made on first use.
 */
final class EtcdGateway {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI endpoint;
  private final Duration timeout;
  private final HttpClient http;
  private final Optional<EtcdAuth> auth;

  EtcdGateway(URI endpoint, Optional<TlsFiles> tls, Duration timeout, Optional<EtcdAuth> auth) {
    this.endpoint = endpoint;
    this.timeout = timeout;
    this.auth = auth;
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
    if (tls.isPresent()) {
      try {
        builder.sslContext(TlsContexts.of(tls.get()));
      } catch (IOException e) {
        throw new IllegalStateException("cannot load the etcd client TLS files: "
            + e.getMessage(), e);
      }
    }
    this.http = builder.build();
  }

  String get(String path, String what) throws EtcdException {
    return send(() -> HttpRequest.newBuilder(endpoint.resolve(path)).timeout(timeout).GET(),
        what);
  }

  String post(String path, String json, String what) throws EtcdException {
    return send(() -> HttpRequest.newBuilder(endpoint.resolve(path)).timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)), what);
  }

  /**
   * Sends with the token in etcd's {@code Authorization} header when authenticating; a call
   * refused for its token is sent once more with a new one.
   */
  private String send(java.util.function.Supplier<HttpRequest.Builder> request, String what)
      throws EtcdException {
    if (auth.isEmpty()) {
      return sendOnce(request.get().build(), what);
    }
    Optional<String> token = auth.get().token();
    try {
      return sendOnce(withToken(request.get(), token), what);
    } catch (EtcdException e) {
      auth.get().refused(token.orElse(null), e.getMessage());
      Optional<String> next = auth.get().token();
      if (next.equals(token)) {
        throw e;
      }
      return sendOnce(withToken(request.get(), next), what);
    }
  }

  private static HttpRequest withToken(HttpRequest.Builder request, Optional<String> token) {
    token.ifPresent(t -> request.header("Authorization", t));
    return request.build();
  }

  private String sendOnce(HttpRequest request, String what) throws EtcdException {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new EtcdException("cannot " + what + ": " + reason(response), null);
      }
      return response.body();
    } catch (IOException e) {
      throw new EtcdException("cannot " + what + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EtcdException("interrupted while trying to " + what, e);
    }
  }

  /** etcd's own message of a refused gateway call ({"message": ...}), else the body. */
  private static String reason(HttpResponse<String> response) {
    return field(response.body(), "message").or(() -> field(response.body(), "error"))
        .orElse("HTTP " + response.statusCode() + " " + response.body());
  }

  /**
   * The schema version of the member's database in a gateway status answer (etcd 3.6+,
   * "3.7.0"); empty before 3.6 or without an answer.
   */
  static Optional<String> storageVersion(String statusBody) {
    return field(statusBody, "storageVersion").filter(v -> !v.isBlank());
  }

  /**
   * A number field of a JSON body at {@code path} (the gateway writes int64 as text); 0 for
   * none or no body.
   */
  static long longField(String body, String... path) {
    if (body == null) {
      return 0;
    }
    try {
      JsonNode node = JSON.readTree(body);
      for (String p : path) {
        node = node == null ? null : node.get(p);
      }
      if (node == null || node.isNull()) {
        return 0;
      }
      // protobuf's JSON writes 64-bit integers as decimal strings; etcd's member IDs use all
      // 64 bits (uint64), so they are read unsigned into a long's bits, as jetcd holds them
      return node.isTextual() ? Long.parseUnsignedLong(node.asText()) : node.asLong(0);
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  /** The alarms of a gateway alarm answer ({"alarms": [{"memberID": "…", "alarm": "…"}]}). */
  static List<EtcdAlarm> alarms(String body) throws EtcdException {
    try {
      List<EtcdAlarm> alarms = new ArrayList<>();
      for (JsonNode a : JSON.readTree(body).path("alarms")) {
        alarms.add(new EtcdAlarm(Long.parseUnsignedLong(a.path("memberID").asText("0")),
            a.path("alarm").asText("NONE")));
      }
      return alarms;
    } catch (IOException | NumberFormatException e) {
      throw new EtcdException("cannot read etcd's alarm list: " + e, e);
    }
  }

  /** The gateway body that disarms {@code alarm}. */
  static String deactivate(EtcdAlarm alarm) {
    return "{\"action\":\"DEACTIVATE\",\"memberID\":\"" + Long.toUnsignedString(alarm.memberId())
        + "\",\"alarm\":\"" + alarm.type() + "\"}";
  }

  /** A top-level text field of a JSON body; empty for none or no body. */
  static Optional<String> field(String body, String name) {
    if (body == null) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(body);
      return node != null && node.hasNonNull(name) ? Optional.of(node.get(name).asText())
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The downgrade target of a gateway status answer of etcd 3.6 or later
   * ({"downgradeInfo": {"targetVersion": "3.6.0", "enabled": true}}), as a minor.
   */
  static Optional<String> downgradeTarget(String statusBody) {
    if (statusBody == null) {
      return Optional.empty();
    }
    try {
      JsonNode info = JSON.readTree(statusBody).path("downgradeInfo");
      if (!info.path("enabled").asBoolean(false)) {
        return Optional.empty();
      }
      String target = info.path("targetVersion").asText("");
      String[] parts = target.split("\\.");
      return parts.length >= 2 ? Optional.of(parts[0] + "." + parts[1]) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
