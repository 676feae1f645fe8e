package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.api.agent.Downgraded;
import cloud.gardener.druid.api.agent.MemberStatus;
import static cloud.gardener.druid.api.agent.MemberStatus.hex;

import cloud.gardener.druid.agent.tls.EtcdCredentials;
import cloud.gardener.druid.agent.tls.TlsFiles;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.cluster.Member;
import io.etcd.jetcd.maintenance.StatusResponse;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Membership and maintenance operations through one member's client endpoint. Failures come
 * back as {@link EtcdException} with etcd's own message.
 */
public final class MemberClient implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final Client client;
  private final URI endpoint;
  private final Optional<TlsFiles> tls;
  private final Optional<EtcdAuth> auth;
  private EtcdGateway gateway;

  public MemberClient(URI endpoint, Optional<TlsFiles> tls) {
    this(endpoint, tls, Optional.empty());
  }

  /**
   * A client of the member at {@code endpoint}; with {@code credentials}, every call (gRPC and
   * gateway) authenticates as that etcd user.
   */
  public MemberClient(URI endpoint, Optional<TlsFiles> tls,
      Optional<EtcdCredentials> credentials) {
    this.endpoint = endpoint;
    this.tls = tls;
    this.auth = credentials.map(c -> new EtcdAuth(c, endpoint, tls, TIMEOUT, Clock.systemUTC()));
    this.client = EtcdClients.withAuth(List.of(endpoint), tls, auth);
  }

  public Client client() {
    return client;
  }

  /**
   * Builds the client's event loops, gRPC channel and service stubs now, without connecting
   * (an idle channel connects on its first call), so that a cold JVM does not pay for them
   * on the first call after etcd is up.
   */
  public MemberClient warmUp() {
    client.getKVClient();
    client.getMaintenanceClient();
    client.getClusterClient();
    return this;
  }

  /**
   * Starts connecting now with a status and a member list request whose answers nobody waits
   * for: the connection and the first call's code paths are ready when the first real call
   * comes. Call it once etcd listens (a refused connection makes the channel back off for a
   * second).
   */
  public void connectAhead() {
    client.getMaintenanceClient().statusMember(endpoint.toString()).exceptionally(e -> null);
    client.getClusterClient().listMember().exceptionally(e -> null);
  }

  public URI endpoint() {
    return endpoint;
  }

  /** Whether this member is etcd's leader, asked with {@code timeout}. */
  public boolean leads(Duration timeout) throws EtcdException {
    StatusResponse status = await(client.getMaintenanceClient().statusMember(
        endpoint.toString()), "get the status of " + endpoint, timeout);
    return status.getLeader() == status.getHeader().getMemberId();
  }

  public MemberStatus status() throws EtcdException {
    StatusResponse status = await(client.getMaintenanceClient().statusMember(endpoint.toString()),
        "get the status of " + endpoint);
    long self = status.getHeader().getMemberId();
    Optional<Member> me;
    boolean learner;
    try {
      me = members().stream().filter(m -> m.getId() == self).findFirst();
      learner = me.map(Member::isLearner).orElse(false);
    } catch (EtcdException e) {
      if (!e.getMessage().contains("not supported for learner")) {
        throw e;
      }
      me = Optional.empty();
      learner = true;
    }
    // the fields of etcd 3.6+ jetcd's status does not carry: one gateway call for all of them
    String gatewayStatus = optional(() -> Optional.of(gatewayStatus()));
    MemberStatus.Role role = learner ? MemberStatus.Role.Learner
        : status.getLeader() == self ? MemberStatus.Role.Leader : MemberStatus.Role.Member;
    return new MemberStatus(hex(self), me.map(Member::getName).orElse(""), role,
        hex(status.getHeader().getClusterId()), status.getHeader().getRevision(),
        status.getRaftIndex(), status.getRaftTerm(), hex(status.getLeader()), learner,
        status.getDbSize(), status.getVersion(), optional(this::clusterVersion),
        EtcdGateway.downgradeTarget(gatewayStatus).orElse(null),
        EtcdGateway.storageVersion(gatewayStatus).orElse(null));
  }

  /** What etcd said, or null when it did not answer: a status never fails for these. */
  private static String optional(EtcdCall<Optional<String>> call) {
    try {
      return call.get().orElse(null);
    } catch (EtcdException e) {
      return null;
    }
  }

  private interface EtcdCall<T> {
    T get() throws EtcdException;
  }

  /**
   * This member's database figures and its raised alarms: one gateway status (jetcd's status
   * has no dbSizeInUse) and one alarm list; with the members other CORRUPT alarms name.
   */
  public DbSpace dbSpace() throws EtcdException {
    String body = gatewayStatus();
    long self = EtcdGateway.longField(body, "header", "member_id");
    List<EtcdAlarm> raised = alarms();
    List<String> alarms = raised.stream().filter(a -> a.memberId() == self)
        .map(EtcdAlarm::type).distinct().toList();
    List<Long> corruptElsewhere = raised.stream().filter(a -> a.memberId() != self
        && a.memberId() != 0 && EtcdAlarm.CORRUPT.equals(a.type()))
        .map(EtcdAlarm::memberId).toList();
    List<String> unnamed = raised.stream().filter(a -> a.memberId() == 0)
        .map(EtcdAlarm::type).distinct().toList();
    return new DbSpace(EtcdGateway.longField(body, "header", "revision"),
        EtcdGateway.longField(body, "dbSize"), EtcdGateway.longField(body, "dbSizeInUse"), alarms,
        corruptElsewhere, unnamed);
  }

  /**
   * A member's database: the revision, the file, the pages in use, its alarms ("NOSPACE"), the
   * IDs of other members a CORRUPT alarm names, the alarms that name no member (member 0:
   * etcd 3.5's periodic corruption check).
   */
  public record DbSpace(long revision, long dbSizeBytes, long dbSizeInUseBytes,
      List<String> alarms, List<Long> corruptElsewhere, List<String> unnamedAlarms) {
  }

  /**
   * Disarms every NOSPACE alarm of the cluster (as {@code etcdctl alarm disarm} does); returns
   * what it disarmed ("NOSPACE on 8e9e05c52164694d"). etcd raises the alarm again on the next
   * write that finds a member over its quota.
   */
  public List<String> disarmNoSpace() throws EtcdException {
    List<EtcdAlarm> raised = alarms().stream()
        .filter(a -> EtcdAlarm.NOSPACE.equals(a.type())).toList();
    for (EtcdAlarm a : raised) {
      disarm(a);
    }
    return raised.stream().map(a -> "NOSPACE on " + hex(a.memberId())).toList();
  }

  /**
   * Disarms the CORRUPT alarms that name a member no longer in the cluster; returns what it
   * disarmed. etcd keeps an alarm when its member is removed, and refuses every write while
   * one is raised: after the member's volume was replaced (removed, added anew with another
   * ID) the data the alarm named is gone, so its alarm only blocks a healthy cluster. A member
   * still in the cluster keeps its alarm until it is replaced.
   */
  public List<String> disarmCorruptOfDepartedMembers() throws EtcdException {
    List<Long> present = members().stream().map(Member::getId).toList();
    // member 0 is no member that departed: etcd 3.5's periodic check names none
    List<EtcdAlarm> departed = alarms().stream().filter(a -> EtcdAlarm.CORRUPT.equals(a.type())
        && a.memberId() != 0 && !present.contains(a.memberId())).toList();
    for (EtcdAlarm a : departed) {
      disarm(a);
    }
    return departed.stream().map(a -> "CORRUPT on " + hex(a.memberId())).toList();
  }

  /** Every alarm etcd raised (etcd's gateway: jetcd 0.8.5 reads CORRUPT as UNRECOGNIZED). */
  public List<EtcdAlarm> alarms() throws EtcdException {
    return EtcdGateway.alarms(gateway().post("/v3/maintenance/alarm", "{\"action\":\"GET\"}",
        "list the alarms of " + endpoint));
  }

  private void disarm(EtcdAlarm a) throws EtcdException {
    gateway().post("/v3/maintenance/alarm", EtcdGateway.deactivate(a),
        "disarm the " + a.type() + " alarm of " + hex(a.memberId()));
  }

  /** The current revision, read from this member without a quorum round trip. */
  public long revision() throws EtcdException {
    return await(client.getKVClient().get(ByteSequence.from(new byte[] {0}),
        GetOption.builder().withCountOnly(true).withSerializable(true).build()),
        "read the revision").getHeader().getRevision();
  }

  /**
   * The revision of etcd's auth store (users, roles, passwords, authentication on or off),
   * raised by every change of it; 0 while it was never changed.
   */
  public long authRevision() throws EtcdException {
    return EtcdGateway.longField(gateway().post("/v3/auth/status", "{}",
        "read the auth status of " + endpoint), "authRevision");
  }

  /** etcd's {@code HashKV} of this member at {@code revision}. */
  public KvHash hashKv(long revision) throws EtcdException {
    var r = await(client.getMaintenanceClient().hashKV(endpoint.toString(), revision),
        "hash the keys of " + endpoint + " at revision " + revision, Duration.ofMinutes(5));
    return new KvHash(Integer.toUnsignedLong(r.getHash()), r.getCompacted(), revision);
  }

  /** {@code HashKV}'s answer: the hash at a revision, of the history after compactRevision. */
  public record KvHash(long hash, long compactRevision, long revision) {
  }

  public List<Member> members() throws EtcdException {
    return await(client.getClusterClient().listMember(), "list members").getMembers();
  }

  public Member addLearner(URI peerUrl) throws EtcdException {
    return addLearner(List.of(peerUrl));
  }

  public Member addLearner(List<URI> peerUrls) throws EtcdException {
    return await(client.getClusterClient().addMember(peerUrls, true),
        "add a learner with peer URLs " + peerUrls).getMember();
  }

  /** Replaces the peer URLs etcd has registered for {@code memberId}. */
  public void updatePeerUrls(long memberId, List<URI> peerUrls) throws EtcdException {
    await(client.getClusterClient().updateMember(memberId, peerUrls),
        "update the peer URLs of member " + hex(memberId) + " to " + peerUrls);
  }

  public void remove(long memberId) throws EtcdException {
    await(client.getClusterClient().removeMember(memberId), "remove member " + hex(memberId));
  }

  public void moveLeader(long toMemberId) throws EtcdException {
    await(client.getMaintenanceClient().moveLeader(toMemberId),
        "move leadership to " + hex(toMemberId));
  }

  /** Drops the key history before {@code revision}, returning once the database dropped it. */
  public void compact(long revision) throws EtcdException {
    await(client.getKVClient().compact(revision,
        io.etcd.jetcd.options.CompactOption.newBuilder().withCompactPhysical(true).build()),
        "compact at revision " + revision, Duration.ofMinutes(10));
  }

  /**
   * Drops the key history before {@code revision} at once for every reader, and returns once
   * etcd has committed that; etcd deletes the old revisions from its database afterwards, in
   * the background, and resumes that after a restart until it is done.
   */
  public void scheduleCompaction(long revision) throws EtcdException {
    await(client.getKVClient().compact(revision), "compact at revision " + revision,
        Duration.ofMinutes(10));
  }

  public void defragment() throws EtcdException {
    defragment(Duration.ofMinutes(10));
  }

  /** Defragments this member, giving up after {@code timeout}. */
  public void defragment(Duration timeout) throws EtcdException {
    CompletableFuture<?> f = client.getMaintenanceClient().defragmentMember(endpoint.toString());
    await(f, "defragment " + endpoint, timeout);
  }

  /**
   * Promotes a learner through etcd's gRPC gateway (jetcd 0.8.5 has no promote call). etcd
   * refuses while the learner is not in sync; the message says so.
   */
  public void promote(long memberId) throws EtcdException {
    gateway().post("/v3/cluster/member/promote",
        "{\"ID\":\"" + Long.toUnsignedString(memberId) + "\"}",
        "promote learner " + hex(memberId));
  }

  /**
   * One step of etcd's downgrade protocol (jetcd 0.8.5 has no downgrade call): validate or
   * enable a downgrade of the cluster to {@code minor} ("3.6"), or cancel the one enabled.
   * Returns the cluster version etcd answers with; etcd's refusal comes back as an
   * {@link EtcdException} with etcd's reason.
   */
  public String downgrade(Downgraded.Action action, String minor) throws EtcdException {
    String body = "{\"action\":\"" + action.name() + "\""
        + (action == Downgraded.Action.CANCEL ? "" : ",\"version\":\"" + minor + "\"") + "}";
    String answer = gateway().post("/v3/maintenance/downgrade", body,
        action.name().toLowerCase(java.util.Locale.ROOT) + " the downgrade to " + minor);
    return EtcdGateway.field(answer, "version").orElse(null);
  }

  /** etcd's cluster version ("3.6.0", from /version) or empty when etcd did not decide one. */
  public Optional<String> clusterVersion() throws EtcdException {
    return EtcdGateway.field(gateway().get("/version", "read the cluster version"),
        "etcdcluster").filter(v -> !v.isBlank() && !"not_decided".equals(v));
  }

  /** etcd's status as its gRPC gateway answers it (JSON). */
  private String gatewayStatus() throws EtcdException {
    return gateway().post("/v3/maintenance/status", "{}", "get the status of " + endpoint);
  }

  private synchronized EtcdGateway gateway() {
    if (gateway == null) {
      gateway = new EtcdGateway(endpoint, tls, TIMEOUT, auth);
    }
    return gateway;
  }

  static <T> T await(CompletableFuture<T> future, String what) throws EtcdException {
    return await(future, what, TIMEOUT);
  }

  static <T> T await(CompletableFuture<T> future, String what, Duration timeout)
      throws EtcdException {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new EtcdException("cannot " + what + ": " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new EtcdException("cannot " + what + ": no answer within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EtcdException("interrupted while trying to " + what, e);
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
