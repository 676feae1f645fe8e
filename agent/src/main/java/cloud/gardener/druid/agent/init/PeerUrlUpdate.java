package cloud.gardener.druid.agent.init;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.api.agent.MemberStatus;
import io.etcd.jetcd.cluster.Member;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the peer URL etcd has registered for this member equal to the one it advertises.
 * etcd reads {@code --initial-advertise-peer-urls} only when it forms a cluster, so when the
 * advertised URL changes on a member with data (peer TLS turned on: {@code http://} becomes
 * {@code https://}) the membership must be updated (MemberUpdate), or the other members keep
 * dialling the old scheme.
 *
 * <p>Checked with etcd 3.6: while a rolled member listens with https and the others still
 * listen with http, the cluster keeps its quorum because the rolled member dials the others
 * itself (rafthttp stream readers connect outwards, and the remote side writes its messages
 * into that stream), and members that already have the peer certificates reach it over https.
 * Two updated members must be able to reach each other, so their certificates must pass the
 * peer client-certificate check (SAN of the connecting address, or
 * {@code skipClientSANVerification}).
 *
 * <p>{@link #beforeStart} updates the membership through another member before etcd starts
 * (a rolling update: the others have the quorum); {@link #afterStart} checks again through
 * this member's own etcd, for a single member or when no other member answered.
 */
public final class PeerUrlUpdate implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PeerUrlUpdate.class);

  /** In the data directory: the peer URL last confirmed as this member's registered one. */
  static final String RECORD = "druid-registered-peer-url";

  private final MemberConfig member;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "peer-url-update"));

  public PeerUrlUpdate(MemberConfig member) {
    this.member = member;
  }

  /**
   * The id of this member when its registered peer URLs are not exactly {@code advertised};
   * empty when they are, or when the member is not registered (it joins as a learner then).
   */
  static Optional<Long> staleRegistration(List<Member> members, String name, URI advertised) {
    return staleRegistration(members, name, List.of(advertised));
  }

  /** As above, for a member advertising several URLs (in any order). */
  static Optional<Long> staleRegistration(List<Member> members, String name,
      List<URI> advertised) {
    return members.stream()
        .filter(m -> m.getName().equals(name))
        .filter(m -> !new java.util.HashSet<>(m.getPeerURIs())
            .equals(new java.util.HashSet<>(advertised)))
        .map(Member::getId)
        .findFirst();
  }

  /** Makes the registration match through {@code via} and records the URL as registered. */
  void update(MemberClient via) throws EtcdException {
    List<URI> advertised = member.advertisePeerUrls();
    Optional<Long> stale = staleRegistration(via.members(), member.name(), advertised);
    if (stale.isPresent()) {
      LOG.info("updating the registered peer URLs of {} ({}) to {}", member.name(),
          MemberStatus.hex(stale.get()), advertised);
      via.updatePeerUrls(stale.get(), advertised);
    }
    record(recordOf(advertised));
  }

  private static String recordOf(List<URI> urls) {
    return String.join(",", urls.stream().map(URI::toString).toList());
  }

  /**
   * Best effort before etcd starts, through the first other member that answers; skipped
   * when the data directory records that the advertised URL is the registered one.
   */
  public void beforeStart() {
    if (member.isSingleMember() || recordOf(member.advertisePeerUrls()).equals(recorded())) {
      return;
    }
    Optional<MemberClient> other = new ClusterJoiner(member).findRunningCluster();
    if (other.isEmpty()) {
      LOG.info("no other member answers; the peer URL of {} is checked once etcd runs",
          member.name());
      return;
    }
    try (MemberClient client = other.get()) {
      update(client);
    } catch (EtcdException e) {
      LOG.warn("cannot check the peer URL of {} before etcd starts: {}", member.name(),
          e.getMessage());
    }
  }

  /** Checks through this member's etcd every two seconds until the registration matches. */
  public void afterStart(MemberClient self) {
    executor.scheduleWithFixedDelay(() -> {
      try {
        update(self);
        executor.shutdown();
      } catch (EtcdException e) {
        LOG.info("peer URL of {} not checked yet: {}", member.name(), e.getMessage());
      }
    }, 0, 2, TimeUnit.SECONDS);
  }

  private String recorded() {
    try {
      Path file = member.dataDir().resolve(RECORD);
      return Files.exists(file) ? Files.readString(file).strip() : "";
    } catch (IOException e) {
      return "";
    }
  }

  private void record(String registered) {
    try {
      Files.writeString(member.dataDir().resolve(RECORD), registered + "\n");
    } catch (IOException e) {
      LOG.warn("cannot record the registered peer URL: {}", e.toString());
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
