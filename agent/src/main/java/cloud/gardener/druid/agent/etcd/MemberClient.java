package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.api.agent.MemberStatus;
import static cloud.gardener.druid.api.agent.MemberStatus.hex;

import cloud.gardener.druid.agent.tls.TlsContexts;
import cloud.gardener.druid.agent.tls.TlsFiles;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.cluster.Member;
import io.etcd.jetcd.maintenance.StatusResponse;
import io.etcd.jetcd.options.GetOption;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

  public MemberClient(URI endpoint, Optional<TlsFiles> tls) {
    this.endpoint = endpoint;
    this.tls = tls;
    this.client = EtcdClients.connect(List.of(endpoint), tls);
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
    MemberStatus.Role role = learner ? MemberStatus.Role.Learner
        : status.getLeader() == self ? MemberStatus.Role.Leader : MemberStatus.Role.Member;
    return new MemberStatus(hex(self), me.map(Member::getName).orElse(""), role,
        hex(status.getHeader().getClusterId()), status.getHeader().getRevision(),
        status.getRaftIndex(), status.getRaftTerm(), hex(status.getLeader()), learner,
        status.getDbSize(), status.getVersion());
  }

  /** The current revision, read from this member without a quorum round trip. */
  public long revision() throws EtcdException {
    return await(client.getKVClient().get(ByteSequence.from(new byte[] {0}),
        GetOption.builder().withCountOnly(true).withSerializable(true).build()),
        "read the revision").getHeader().getRevision();
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
    return await(client.getClusterClient().addMember(List.of(peerUrl), true),
        "add a learner with peer URL " + peerUrl).getMember();
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
    CompletableFuture<?> f = client.getMaintenanceClient().defragmentMember(endpoint.toString());
    await(f, "defragment " + endpoint, Duration.ofMinutes(10));
  }

  /**
   * Promotes a learner through etcd's gRPC gateway (jetcd 0.8.5 has no promote call). etcd
   * refuses while the learner is not in sync; the message says so.
   */
  public void promote(long memberId) throws EtcdException {
    HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/v3/cluster/member/promote"))
        .timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"ID\":\"" + Long.toUnsignedString(memberId) + "\"}"))
        .build();
    try {
      HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(TIMEOUT);
      if (tls.isPresent()) {
        http.sslContext(TlsContexts.of(tls.get()));
      }
      HttpResponse<String> response = http.build()
          .send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new EtcdException("cannot promote learner " + hex(memberId) + ": HTTP "
            + response.statusCode() + " " + response.body(), null);
      }
    } catch (IOException e) {
      throw new EtcdException("cannot promote learner " + hex(memberId) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EtcdException("interrupted", e);
    }
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
