package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.AgentApi;
import cloud.gardener.druid.operator.observe.AgentReport;
import cloud.gardener.druid.operator.observe.AgentView;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link AgentClient} over the agent's HTTP API (paths from {@link AgentApi}). */
public final class HttpAgentClient implements AgentClient {

  private static final Logger LOG = LoggerFactory.getLogger(HttpAgentClient.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient plainHttp;
  private final Function<AgentEndpoint, Optional<SSLContext>> tls;
  private final Map<SSLContext, HttpClient> tlsClients;
  private final Consumer<AgentEndpoint> handshakeFailed;
  private final Duration statusTimeout;
  private final Duration actionTimeout;

  /** One TLS context (or none) for every agent. */
  public HttpAgentClient(SSLContext tls, Duration statusTimeout, Duration actionTimeout) {
    this(endpoint -> Optional.ofNullable(tls), statusTimeout, actionTimeout);
  }

  /** The TLS context of each agent from {@code tls}, e.g. its Etcd's secrets. */
  public HttpAgentClient(Function<AgentEndpoint, Optional<SSLContext>> tls,
      Duration statusTimeout, Duration actionTimeout) {
    this(tls, endpoint -> { }, statusTimeout, actionTimeout);
  }

  /** ... and {@code handshakeFailed} told of each endpoint whose TLS handshake failed. */
  private HttpAgentClient(Function<AgentEndpoint, Optional<SSLContext>> tls,
      Consumer<AgentEndpoint> handshakeFailed, Duration statusTimeout, Duration actionTimeout) {
    this.plainHttp = HttpClient.newBuilder().connectTimeout(statusTimeout).build();
    this.tls = tls;
    this.handshakeFailed = handshakeFailed;
    this.tlsClients = new ConcurrentHashMap<>();
    this.statusTimeout = statusTimeout;
    this.actionTimeout = actionTimeout;
  }

  /** {@code base}'s connections and TLS material with another action timeout. */
  private HttpAgentClient(HttpAgentClient base, Duration actionTimeout) {
    this.plainHttp = base.plainHttp;
    this.tls = base.tls;
    this.tlsClients = base.tlsClients;
    this.handshakeFailed = base.handshakeFailed;
    this.statusTimeout = base.statusTimeout;
    this.actionTimeout = actionTimeout;
  }

  @Override
  public AgentClient withActionTimeout(Duration timeout) {
    return new HttpAgentClient(this, timeout);
  }

  /** Agents are called with their Etcd's TLS material: its CA and the operator's identity. */
  public static HttpAgentClient withTlsFrom(AgentTlsContexts contexts) {
    return new HttpAgentClient(contexts::contextFor, contexts::forget, Duration.ofSeconds(2),
        Duration.ofSeconds(60));
  }

  /** A failed handshake may mean rotated TLS material: it is read again next time. */
  private void failed(AgentEndpoint endpoint, Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException) {
        handshakeFailed.accept(endpoint);
        return;
      }
    }
  }

  /** The client for the endpoint: plain HTTP, or HTTPS with the endpoint's TLS context. */
  private HttpClient http(AgentEndpoint endpoint) {
    if (!endpoint.tls()) {
      return plainHttp;
    }
    SSLContext context = tls.apply(endpoint).orElseThrow(() -> new AgentException(
        "no TLS material for the agent of " + endpoint.member()));
    return tlsClients.computeIfAbsent(context, c -> HttpClient.newBuilder()
        .connectTimeout(statusTimeout).sslContext(c).build());
  }

  public static HttpAgentClient plain() {
    return new HttpAgentClient((SSLContext) null, Duration.ofSeconds(2), Duration.ofSeconds(60));
  }

  @Override
  public Optional<AgentView> status(AgentEndpoint endpoint) {
    return report(endpoint).view();
  }

  @Override
  public AgentReport report(AgentEndpoint endpoint) {
    try {
      HttpResponse<String> r = http(endpoint).send(HttpRequest.newBuilder(endpoint.uri(AgentApi.MEMBER_STATUS))
          .timeout(statusTimeout).GET().build(), HttpResponse.BodyHandlers.ofString());
      // 503: etcd does not run (yet); the body still says whether the member restores
      if (r.statusCode() != 200 && r.statusCode() != 503) {
        LOG.debug("agent {} status: HTTP {}", endpoint.member(), r.statusCode());
        return AgentReport.NONE;
      }
      return parseReport(JSON.readTree(r.body()));
    } catch (IOException | AgentException e) {
      failed(endpoint, e);
      LOG.debug("agent {} status: {}", endpoint.member(), e.toString());
      return AgentReport.NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AgentReport.NONE;
    }
  }

  /**
   * The view (when the body has an {@code etcd} object) and the restore's description while
   * the agent's initialisation is in {@code Progress} and its {@code restore} is not done.
   */
  static AgentReport parseReport(JsonNode body) {
    Optional<AgentView> view = body.path("etcd").isObject() ? Optional.of(parseView(body))
        : Optional.empty();
    JsonNode restore = body.path("restore");
    boolean restoring = "Progress".equals(body.path("initialization").asText())
        && restore.isObject() && !"DONE".equals(restore.path("phase").asText())
        && !restore.path("description").asText("").isBlank();
    return new AgentReport(view, restoring
        ? Optional.of(restore.path("description").asText()) : Optional.empty());
  }

  /**
   * Reads the agent's member status: {@code {"name", "initialization", "etcd": {"id", "role",
   * "clusterId", "leaderId", "raftIndex", "learner", ...}, "members": [{"id", "name",
   * "learner"}]}}. A member whose etcd does not answer has no {@code etcd} object.
   */
  static AgentView parseView(JsonNode body) {
    JsonNode n = body.path("etcd");
    List<AgentView.Membership> members = new ArrayList<>();
    JsonNode list = body.has("members") ? body.path("members") : n.path("members");
    for (JsonNode m : list) {
      members.add(new AgentView.Membership(m.path("id").asText(), m.path("name").asText(),
          m.path("learner").asBoolean(m.path("isLearner").asBoolean(false))));
    }
    String role = n.path("learner").asBoolean(false) ? "Learner" : n.path("role").asText();
    boolean healthy = n.isObject() && !n.path("leaderId").asText("").isEmpty()
        && !"0".equals(n.path("leaderId").asText());
    return new AgentView(n.path("id").asText(), n.path("clusterId").asText(), role,
        n.path("leaderId").asText(), n.path("raftIndex").asLong(), healthy, List.copyOf(members));
  }

  @Override
  public void moveLeader(AgentEndpoint leader, String toMemberId) {
    post(leader, AgentApi.MEMBER_MOVE_LEADER + "?to=" + toMemberId);
  }

  @Override
  public void promote(AgentEndpoint via, String memberId) {
    post(via, AgentApi.MEMBER_PROMOTE + "?id=" + memberId);
  }

  @Override
  public void removeMember(AgentEndpoint via, String memberId) {
    post(via, AgentApi.MEMBER_REMOVE + "?id=" + memberId);
  }

  @Override
  public long fullSnapshot(AgentEndpoint leader, boolean isFinal) {
    JsonNode body = post(leader, AgentApi.SNAPSHOT_FULL + (isFinal ? "?final=true" : ""));
    if (!body.path("endRevision").canConvertToLong()) {
      throw new AgentException("agent of " + leader.member() + " answered a full snapshot"
          + " without its revision: " + body);
    }
    return body.path("endRevision").asLong();
  }

  @Override
  public OptionalLong deltaSnapshot(AgentEndpoint leader) {
    JsonNode body = post(leader, AgentApi.SNAPSHOT_DELTA);
    return body.path("endRevision").canConvertToLong()
        ? OptionalLong.of(body.path("endRevision").asLong()) : OptionalLong.empty();
  }

  @Override
  public Optional<SnapshotProgress> snapshotProgress(AgentEndpoint endpoint) {
    try {
      HttpResponse<String> r = http(endpoint).send(HttpRequest.newBuilder(
          endpoint.uri(AgentApi.SNAPSHOT_PROGRESS)).timeout(statusTimeout).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        return Optional.empty();
      }
      return parseProgress(JSON.readTree(r.body()));
    } catch (IOException | AgentException e) {
      failed(endpoint, e);
      LOG.debug("agent {} snapshot progress: {}", endpoint.member(), e.toString());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** {@code {"kind", "bytesDone", "bytesTotal", "startedAt", "running"}}; empty if malformed. */
  static Optional<SnapshotProgress> parseProgress(JsonNode body) {
    try {
      return Optional.of(new SnapshotProgress(body.path("kind").asText(),
          body.path("bytesDone").asLong(), body.path("bytesTotal").asLong(),
          java.time.Instant.parse(body.path("startedAt").asText()),
          body.path("running").asBoolean()));
    } catch (java.time.format.DateTimeParseException e) {
      return Optional.empty();
    }
  }

  @Override
  public void defragment(AgentEndpoint member) {
    post(member, AgentApi.DEFRAGMENT);
  }

  /**
   * POSTs and returns the JSON answer (an empty object when the body is not JSON). An agent
   * busy with other long operations (429) is asked again after its {@code Retry-After} while
   * the action timeout lasts.
   */
  private JsonNode post(AgentEndpoint endpoint, String pathAndQuery) {
    long deadline = System.nanoTime() + actionTimeout.toNanos();
    try {
      while (true) {
        HttpResponse<String> r = http(endpoint).send(HttpRequest.newBuilder(
            endpoint.uri(pathAndQuery)).timeout(actionTimeout)
            .POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == AgentApi.BUSY) {
          Duration retryAfter = retryAfter(r);
          if (System.nanoTime() + retryAfter.toNanos() < deadline) {
            LOG.debug("agent {} busy; {} again in {}", endpoint.member(), pathAndQuery,
                retryAfter);
            Thread.sleep(retryAfter.toMillis());
            continue;
          }
          throw new AgentException("agent of " + endpoint.member() + " stayed busy with other"
              + " long operations; " + pathAndQuery + " is to be retried: " + r.body().strip());
        }
        if (r.statusCode() / 100 != 2) {
          throw new AgentException("agent of " + endpoint.member() + " refused " + pathAndQuery
              + ": HTTP " + r.statusCode() + " " + r.body().strip());
        }
        return parse(r.body());
      }
    } catch (IOException e) {
      failed(endpoint, e);
      throw new AgentException("agent of " + endpoint.member() + " did not answer " + pathAndQuery
          + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AgentException("interrupted while calling " + endpoint.member(), e);
    }
  }

  private static Duration retryAfter(HttpResponse<?> r) {
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(
          r.headers().firstValue("Retry-After").orElse("1").strip())));
    } catch (NumberFormatException e) {
      return Duration.ofSeconds(1);
    }
  }

  private static JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
