package cloud.gardener.druid.agent.http;

import static cloud.gardener.druid.agent.http.Exchanges.json;
import static cloud.gardener.druid.agent.http.Exchanges.param;
import static cloud.gardener.druid.agent.http.Exchanges.required;
import static cloud.gardener.druid.agent.http.Exchanges.text;

import cloud.gardener.druid.agent.defrag.Defragmenter;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.http.ApiServer.Kind;
import cloud.gardener.druid.agent.init.DataDirValidator.Mode;
import cloud.gardener.druid.agent.metrics.AgentMetrics;
import cloud.gardener.druid.agent.metrics.BackupRestoreMetrics;
import cloud.gardener.druid.agent.restore.RestorePlan;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import cloud.gardener.druid.agent.snapshot.SnapshotProgressMeter;
import cloud.gardener.druid.agent.snapshot.SnapshotScheduler;
import cloud.gardener.druid.agent.store.Snapshot;
import cloud.gardener.druid.agent.tls.ReloadingTls;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.AlarmsDisarmed;
import cloud.gardener.druid.api.agent.Compacted;
import cloud.gardener.druid.api.agent.Defragmented;
import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.agent.Health;
import cloud.gardener.druid.api.agent.InitStatus;
import cloud.gardener.druid.api.agent.LatestSnapshots;
import cloud.gardener.druid.api.agent.LeaderMoved;
import cloud.gardener.druid.api.agent.MemberPromoted;
import cloud.gardener.druid.api.agent.MemberRemoved;
import cloud.gardener.druid.api.agent.MemberReport;
import cloud.gardener.druid.api.agent.MemberStatus;
import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.api.agent.NoDeltaSnapshot;
import cloud.gardener.druid.api.agent.Readiness;
import cloud.gardener.druid.api.agent.RestoreReport;
import cloud.gardener.druid.api.agent.SnapshotProgress;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's HTTP API (HTTPS when a server certificate is configured, as the operator always
 * does). Paths are {@link AgentApi}'s; answers are JSON except {@code /initialization/status}
 * (plain text, as upstream; a second line says why it failed or how far a restore is) and {@code /metrics} (Prometheus text). Who may call what and on
 * which threads: {@link ApiServer}.
 */
public final class AgentHttpServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AgentHttpServer.class);
  private static final Set<String> GET = Set.of("GET");
  private static final Set<String> POST = Set.of("POST");
  private static final Set<String> GET_OR_POST = Set.of("GET", "POST");
  /** Full snapshots, deltas and defragmentation running at once; one more is answered 429. */
  static final int LONG_SLOTS = 2;
  /** How soon a rewritten certificate or CA bundle (rotation) is used. */
  static final Duration TLS_RECHECK = Duration.ofSeconds(10);

  private final ApiSettings settings;
  private final AgentMetrics metrics;
  private final Initialization init;
  private final EtcdMember member;
  private final Backups backups;
  private final ApiServer server;

  public AgentHttpServer(ApiSettings settings, AgentMetrics metrics, Initialization init,
      EtcdMember member, Backups backups) throws IOException {
    this.settings = settings;
    this.metrics = metrics;
    this.init = init;
    this.member = member;
    this.backups = backups;
    InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
    Optional<SSLContext> tls = settings.tls().isEmpty() ? Optional.empty()
        : Optional.of(new ReloadingTls(settings.tls().get(), Clock.systemUTC(), TLS_RECHECK)
            .context());
    this.server = new ApiServer(address, tls, settings.caller().map(CallerCheck::new),
        LONG_SLOTS);
    if (settings.caller().isEmpty()) {
      LOG.warn("the agent API answers every caller (--insecure-api): for tests only");
    }
    route(AgentApi.HEALTHZ, GET, Kind.OPEN, this::healthz);
    route(AgentApi.READYZ, GET, Kind.OPEN, this::readyz);
    // as etcd-backup-restore: metrics are open to scrapers; they hold no secret
    route(AgentApi.METRICS, GET, Kind.OPEN, e -> Exchanges.send(e, 200,
        "text/plain; version=0.0.4; charset=utf-8",
        metrics.scrape().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    audited(AgentApi.INITIALIZATION_START, GET_OR_POST, Kind.QUICK, this::initializationStart);
    route(AgentApi.INITIALIZATION_STATUS, GET, Kind.QUICK, this::initializationStatus);
    audited(AgentApi.SNAPSHOT_FULL, GET_OR_POST, Kind.LONG, this::snapshotFull);
    audited(AgentApi.SNAPSHOT_DELTA, GET_OR_POST, Kind.LONG, this::snapshotDelta);
    route(AgentApi.SNAPSHOT_LATEST, GET, Kind.QUICK, this::snapshotLatest);
    route(AgentApi.SNAPSHOT_PROGRESS, GET, Kind.QUICK, this::snapshotProgress);
    route(AgentApi.CONFIG, GET, Kind.QUICK, e -> json(e, 200, member.etcdConfig()));
    route(AgentApi.MEMBER_STATUS, GET, Kind.QUICK, this::memberStatus);
    audited(AgentApi.MEMBER_MOVE_LEADER, POST, Kind.QUICK, this::moveLeader);
    audited(AgentApi.MEMBER_PROMOTE, POST, Kind.QUICK, this::promote);
    audited(AgentApi.CLUSTER_DOWNGRADE, POST, Kind.QUICK, this::downgrade);
    audited(AgentApi.MEMBER_REMOVE, POST, Kind.QUICK, this::remove);
    audited(AgentApi.CLUSTER_COMPACT, POST, Kind.LONG, this::compact);
    audited(AgentApi.CLUSTER_ALARMS_DISARM, POST, Kind.QUICK, e -> {
      AlarmsDisarmed disarmed = new AlarmsDisarmed(etcd().disarmNoSpace());
      member.spaceChanged();
      json(e, 200, disarmed);
    });
    audited(AgentApi.DEFRAGMENT, POST, Kind.LONG, e -> {
      Defragmenter.defragment(etcd(), metrics.backupRestore(), settings.defragTimeout());
      member.spaceChanged();
      json(e, 200, new Defragmented(settings.memberName()));
    });
  }

  public int port() {
    return server.port();
  }

  public void start() {
    server.start();
    LOG.info("agent API listening on {}", server.address());
  }

  private void route(String path, Set<String> methods, Kind kind, ApiServer.Handler handler) {
    server.route(path, methods, kind, false, handler);
  }

  private void audited(String path, Set<String> methods, Kind kind, ApiServer.Handler handler) {
    server.route(path, methods, kind, true, handler);
  }

  private void healthz(HttpExchange e) throws IOException {
    boolean healthy = member.etcdHealthy();
    json(e, healthy ? 200 : 503, new Health(healthy));
  }

  /**
   * Ready when initialised and etcd answers as a voting member: a learner refuses client
   * requests, so the client Service must not send it any until it is promoted.
   */
  private void readyz(HttpExchange e) throws IOException {
    boolean ready = init.initStatus() == InitStatus.Successful && member.etcdServesClients();
    json(e, ready ? 200 : 503, new Readiness(ready));
  }

  private void initializationStart(HttpExchange e) throws Exception {
    Optional<Mode> mode = param(e, AgentApi.PARAM_MODE)
        .map(m -> Mode.valueOf(m.toUpperCase(Locale.ROOT)));
    if (init.initStatus() != InitStatus.Successful) {
      init.triggerInitialization(mode);
    }
    text(e, 200, init.initStatus().name());
  }

  private void initializationStatus(HttpExchange e) throws IOException {
    InitStatus status = init.initStatus();
    String detail = switch (status) {
      case Failed -> "\n" + init.initError();
      case Progress -> init.restore()
          .filter(p -> p.phase() != RestoreProgress.Phase.DONE)
          .map(p -> "\n" + p.describe()).orElse("");
      default -> "";
    };
    text(e, 200, status.name() + detail);
  }

  private void snapshotFull(HttpExchange e) throws Exception {
    boolean isFinal = param(e, AgentApi.PARAM_FINAL).map(Boolean::parseBoolean).orElse(false);
    Snapshot full = scheduler().fullNow(isFinal);
    json(e, 200, SnapshotInfos.of(full));
  }

  private void snapshotDelta(HttpExchange e) throws Exception {
    Optional<Snapshot> delta = scheduler().deltaNow();
    if (delta.isEmpty()) {
      json(e, 200, NoDeltaSnapshot.NO_EVENTS);
    } else {
      json(e, 200, SnapshotInfos.of(delta.get()));
    }
  }

  private void snapshotProgress(HttpExchange e) throws Exception {
    SnapshotProgressMeter.View p = scheduler().progress().current().orElseThrow(
        () -> new HttpError(404, "this agent has taken no snapshot since it started"));
    json(e, 200, new SnapshotProgress(p.kind().label(), p.bytesDone(), p.bytesTotal(),
        p.startedAt().toString(), p.running()));
  }

  private void snapshotLatest(HttpExchange e) throws Exception {
    if (backups.store().isEmpty()) {
      throw new HttpError(404, "no backup store is configured");
    }
    Optional<RestorePlan> plan = RestorePlan.of(backups.store().get().list());
    json(e, 200, new LatestSnapshots(plan.map(p -> SnapshotInfos.of(p.full())).orElse(null),
        plan.map(p -> p.deltas().stream().map(SnapshotInfos::of).toList()).orElse(List.of())));
  }

  private void memberStatus(HttpExchange e) throws Exception {
    boolean running = member.client().isPresent();
    json(e, running ? 200 : 503, new MemberReport(settings.memberName(),
        init.initStatus().name(), init.initError(),
        init.restore().map(p -> new RestoreReport(p.phase().name(), p.done(),
            p.total(), p.describe())).orElse(null),
        running ? etcd().status() : null, running ? members() : null,
        member.space().orElse(null), member.corruption().orElse(null)));
  }

  /** The membership as this member sees it; null on a learner, which may not list it. */
  private List<Membership> members() throws HttpError {
    try {
      return etcd().members().stream().map(m -> new Membership(
          MemberStatus.hex(m.getId()), m.getName(), m.isLearner())).toList();
    } catch (EtcdException ex) {
      return null;
    }
  }

  /** Compacts to the revision asked for, or to the current one. */
  private void compact(HttpExchange e) throws Exception {
    MemberClient etcd = etcd();
    long revision;
    try {
      revision = param(e, AgentApi.PARAM_REVISION).map(Long::parseLong)
          .orElse(etcd.revision());
    } catch (NumberFormatException ex) {
      throw new HttpError(400, "revision must be a number");
    }
    if (revision < 1) {
      throw new HttpError(400, "revision must be positive");
    }
    etcd.compact(revision);
    member.spaceChanged();
    LOG.info("compacted the key history to revision {}", revision);
    json(e, 200, new Compacted(revision));
  }

  private void moveLeader(HttpExchange e) throws Exception {
    long to = MemberStatus.parseHex(required(e, AgentApi.PARAM_TO));
    etcd();
    member.moveLeader(to);
    json(e, 200, new LeaderMoved(MemberStatus.hex(to)));
  }

  private void promote(HttpExchange e) throws Exception {
    long id = MemberStatus.parseHex(required(e, AgentApi.PARAM_ID));
    MemberClient etcd = etcd();
    BackupRestoreMetrics.timed(metrics.backupRestore()::memberPromoted, () -> {
      etcd.promote(id);
      return null;
    });
    json(e, 200, new MemberPromoted(MemberStatus.hex(id)));
  }

  /** etcd's downgrade protocol; etcd's refusal is a 409 with etcd's reason. */
  private void downgrade(HttpExchange e) throws Exception {
    Downgraded.Action action;
    try {
      action = Downgraded.Action.valueOf(required(e, AgentApi.PARAM_ACTION)
          .toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException ex) {
      throw new HttpError(400, "action must be validate, enable or cancel");
    }
    String version = action == Downgraded.Action.CANCEL ? ""
        : required(e, AgentApi.PARAM_VERSION);
    if (action != Downgraded.Action.CANCEL && !version.matches("^3\\.[0-9]{1,2}$")) {
      throw new HttpError(400, "version must be a minor such as 3.6");
    }
    try {
      String cluster = etcd().downgrade(action, version);
      LOG.info("etcd downgrade {} {}: accepted, cluster version {}", action, version, cluster);
      json(e, 200, new Downgraded(action.name(), version, cluster));
    } catch (EtcdException ex) {
      throw new HttpError(409, ex.getMessage());
    }
  }

  private void remove(HttpExchange e) throws Exception {
    long id = MemberStatus.parseHex(required(e, AgentApi.PARAM_ID));
    MemberClient etcd = etcd();
    BackupRestoreMetrics.timed(metrics.backupRestore()::memberRemoved, () -> {
      etcd.remove(id);
      return null;
    });
    json(e, 200, new MemberRemoved(MemberStatus.hex(id)));
  }

  private MemberClient etcd() throws HttpError {
    return member.client().orElseThrow(() -> new HttpError(503, "etcd is not running"));
  }

  private SnapshotScheduler scheduler() throws HttpError {
    return backups.scheduler().orElseThrow(() -> new HttpError(503,
        backups.store().isEmpty() ? "no backup store is configured" : "etcd is not running"));
  }

  @Override
  public void close() {
    server.close();
  }
}
