package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.agent.AgentJson;
import cloud.gardener.druid.api.agent.Defragmented;
import cloud.gardener.druid.api.agent.InitStatus;
import cloud.gardener.druid.api.agent.LeaderMoved;
import cloud.gardener.druid.api.agent.MemberPromoted;
import cloud.gardener.druid.api.agent.MemberRemoved;
import cloud.gardener.druid.api.agent.MemberReport;
import cloud.gardener.druid.api.agent.MemberSpace;
import cloud.gardener.druid.api.agent.AlarmsDisarmed;
import cloud.gardener.druid.api.agent.Compacted;
import cloud.gardener.druid.api.agent.MemberStatus;
import cloud.gardener.druid.api.agent.MemberStatus.Role;
import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.api.agent.NoDeltaSnapshot;
import cloud.gardener.druid.api.agent.RestoreReport;
import cloud.gardener.druid.api.agent.SnapshotInfo;
import cloud.gardener.druid.api.agent.SnapshotProgress;
import cloud.gardener.druid.operator.agent.AgentReport;
import cloud.gardener.druid.operator.agent.AgentView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
      HttpResponse<String> r = get(endpoint, AgentApi.MEMBER_STATUS);
      // 503: etcd does not run (yet); the body still says whether the member restores
      if (r.statusCode() != 200 && r.statusCode() != 503) {
        LOG.debug("agent {} status: HTTP {}", endpoint.member(), r.statusCode());
        return AgentReport.NONE;
      }
      return parseReport(r.body());
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
   * The view (once the agent reports etcd's) and the restore's description while the agent's
   * initialisation is in {@code Progress} and its restore is not done.
   */
  static AgentReport parseReport(String body) throws IOException {
    MemberReport report = AgentJson.read(body, MemberReport.class);
    Optional<AgentView> view = Optional.ofNullable(report.etcd())
        .map(etcd -> viewOf(etcd, report.members(), report.space()));
    RestoreReport restore = report.restore();
    boolean restoring = InitStatus.Progress.name().equals(report.initialization())
        && restore != null && !RestoreReport.DONE.equals(restore.phase())
        && restore.description() != null && !restore.description().isBlank();
    Optional<String> failure = InitStatus.Failed.name().equals(report.initialization())
        ? Optional.ofNullable(report.initializationError()).filter(e -> !e.isBlank())
        : Optional.empty();
    return new AgentReport(view, restoring ? Optional.of(restore.description())
        : Optional.empty(), failure, Optional.ofNullable(report.corruption())
        .filter(c -> !c.isBlank()));
  }

  /** A member is healthy when its etcd follows a leader. */
  private static AgentView viewOf(MemberStatus etcd, List<Membership> members,
      MemberSpace space) {
    String role = etcd.learner() ? Role.Learner.name()
        : Objects.toString(etcd.role(), "");
    String leaderId = Objects.toString(etcd.leaderId(), "");
    boolean healthy = !leaderId.isEmpty() && !"0".equals(leaderId);
    return new AgentView(Objects.toString(etcd.id(), ""),
        Objects.toString(etcd.clusterId(), ""), role, leaderId, etcd.raftIndex(), healthy,
        members == null ? List.of() : List.copyOf(members),
        new AgentView.EtcdVersions(etcd.etcdVersion(), etcd.clusterVersion(),
            etcd.downgradeTarget(), etcd.storageVersion()), Optional.ofNullable(space));
  }

  @Override
  public void moveLeader(AgentEndpoint leader, String toMemberId) {
    post(leader, query(AgentApi.MEMBER_MOVE_LEADER, AgentApi.PARAM_TO, toMemberId),
        LeaderMoved.class);
  }

  @Override
  public void promote(AgentEndpoint via, String memberId) {
    post(via, query(AgentApi.MEMBER_PROMOTE, AgentApi.PARAM_ID, memberId),
        MemberPromoted.class);
  }

  @Override
  public String downgrade(AgentEndpoint via, Downgraded.Action action, String minor) {
    String path = query(AgentApi.CLUSTER_DOWNGRADE, AgentApi.PARAM_ACTION,
        action.name().toLowerCase(java.util.Locale.ROOT));
    if (action != Downgraded.Action.CANCEL) {
      path += "&" + AgentApi.PARAM_VERSION + "=" + minor;
    }
    return post(via, path, Downgraded.class).clusterVersion();
  }

  @Override
  public long compact(AgentEndpoint via) {
    return post(via, AgentApi.CLUSTER_COMPACT, Compacted.class).revision();
  }

  @Override
  public List<String> disarmNoSpace(AgentEndpoint via) {
    return post(via, AgentApi.CLUSTER_ALARMS_DISARM, AlarmsDisarmed.class).disarmed();
  }

  @Override
  public void removeMember(AgentEndpoint via, String memberId) {
    post(via, query(AgentApi.MEMBER_REMOVE, AgentApi.PARAM_ID, memberId), MemberRemoved.class);
  }

  @Override
  public long fullSnapshot(AgentEndpoint leader, boolean isFinal) {
    SnapshotInfo full = post(leader, isFinal
        ? query(AgentApi.SNAPSHOT_FULL, AgentApi.PARAM_FINAL, "true") : AgentApi.SNAPSHOT_FULL,
        SnapshotInfo.class);
    return revisionOf(full).orElseThrow(() -> new AgentException("agent of "
        + leader.member() + " answered a full snapshot without its revision: " + full));
  }

  @Override
  public OptionalLong deltaSnapshot(AgentEndpoint leader) {
    return revisionOf(post(leader, AgentApi.SNAPSHOT_DELTA, SnapshotInfo.class));
  }

  /**
   * The end revision of the snapshot the agent took; empty when it answered without one
   * (a {@link NoDeltaSnapshot}: there were no events). etcd's revisions start at 1, so a
   * missing revision reads as 0.
   */
  static OptionalLong revisionOf(SnapshotInfo snapshot) {
    return snapshot.endRevision() > 0 ? OptionalLong.of(snapshot.endRevision())
        : OptionalLong.empty();
  }

  @Override
  public Optional<SnapshotProgress> snapshotProgress(AgentEndpoint endpoint) {
    try {
      HttpResponse<String> r = get(endpoint, AgentApi.SNAPSHOT_PROGRESS);
      if (r.statusCode() != 200) {
        return Optional.empty();
      }
      return parseProgress(r.body());
    } catch (IOException | AgentException e) {
      failed(endpoint, e);
      LOG.debug("agent {} snapshot progress: {}", endpoint.member(), e.toString());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Empty when malformed: without a start time. */
  static Optional<SnapshotProgress> parseProgress(String body) throws IOException {
    SnapshotProgress progress = AgentJson.read(body, SnapshotProgress.class);
    try {
      Instant.parse(Objects.toString(progress.startedAt(), ""));
      return Optional.of(progress);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private HttpResponse<String> get(AgentEndpoint endpoint, String path)
      throws IOException, InterruptedException {
    return http(endpoint).send(HttpRequest.newBuilder(endpoint.uri(path))
        .timeout(statusTimeout).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String query(String path, String parameter, String value) {
    return path + "?" + parameter + "=" + value;
  }

  @Override
  public void defragment(AgentEndpoint member) {
    post(member, AgentApi.DEFRAGMENT, Defragmented.class);
  }

  /**
   * POSTs and returns the answer as {@code type} (all fields empty when the body is not
   * JSON). An agent busy with other long operations (429) is asked again after its
   * {@code Retry-After} while the action timeout lasts.
   */
  private <T> T post(AgentEndpoint endpoint, String pathAndQuery, Class<T> type) {
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
        return parse(r.body(), type);
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

  /** The answer as {@code type}; all fields empty when it is not JSON. */
  static <T> T parse(String body, Class<T> type) {
    try {
      return AgentJson.read(body == null || body.isBlank() ? "{}" : body, type);
    } catch (IOException e) {
      try {
        return AgentJson.read("{}", type);
      } catch (IOException impossible) {
        throw new UncheckedIOException(impossible);
      }
    }
  }
}
