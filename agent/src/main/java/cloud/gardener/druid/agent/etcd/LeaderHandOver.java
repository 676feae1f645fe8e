package cloud.gardener.druid.agent.etcd;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.api.agent.MemberStatus;
import io.etcd.jetcd.cluster.Member;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before a graceful stop: when this member leads and another voting member exists, moves
 * leadership there, so the cluster does not wait for an election timeout. etcd would try this
 * itself inside its graceful stop, but only after its client servers stopped.
 */
public final class LeaderHandOver {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderHandOver.class);

  private LeaderHandOver() {
  }

  /**
   * Returns the name of the member that leads now, empty when this member did not lead, is
   * alone, or the move failed or took longer than {@code timeout} (logged; the stop goes on).
   */
  public static Optional<String> ifLeader(MemberClient self, Duration timeout) {
    CompletableFuture<Optional<String>> handOver = CompletableFuture.supplyAsync(() -> {
      try {
        return move(self);
      } catch (EtcdException e) {
        LOG.warn("stopping: leadership not moved: {}", e.getMessage());
        return Optional.empty();
      }
    });
    try {
      return handOver.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn("stopping: leadership not moved within {}; stopping anyway", timeout);
      handOver.cancel(true);
    } catch (ExecutionException e) {
      LOG.warn("stopping: leadership not moved: {}", e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Optional.empty();
  }

  /**
   * Moves leadership to member {@code to} from wherever it is: through {@code self} when it
   * leads, else through the leader at the client URL it advertises (etcd moves leadership only
   * on the leader; after joining an existing cluster the leader may be one of its members).
   */
  public static void moveTo(MemberClient self, long to, MemberConfig member)
      throws EtcdException {
    MemberStatus status = self.status();
    if (status.role() == MemberStatus.Role.Leader) {
      self.moveLeader(to);
      return;
    }
    String leaderHex = status.leaderId();
    Optional<Member> leader = leaderHex == null || leaderHex.isEmpty() ? Optional.empty()
        : self.members().stream()
            .filter(m -> m.getId() == MemberStatus.parseHex(leaderHex)).findFirst();
    if (leader.isEmpty() || leader.get().getClientURIs().isEmpty()) {
      throw new EtcdException("move leadership to " + MemberStatus.hex(to) + ": the leader ("
          + leaderHex + ") is not known or advertises no client URL", null);
    }
    EtcdException last = null;
    for (URI url : leader.get().getClientURIs()) {
      try (MemberClient client = new MemberClient(url, member.clientTls(), member.etcdCredentials())) {
        client.moveLeader(to);
        LOG.info("moved leadership from {} ({}) to {}", leader.get().getName(), url,
            MemberStatus.hex(to));
        return;
      } catch (EtcdException e) {
        last = e;
      }
    }
    throw last;
  }

  private static Optional<String> move(MemberClient self) throws EtcdException {
    MemberStatus status = self.status();
    if (status.role() != MemberStatus.Role.Leader) {
      return Optional.empty();
    }
    long selfId = MemberStatus.parseHex(status.id());
    Optional<Member> to = self.members().stream()
        .filter(m -> m.getId() != selfId && !m.isLearner() && !m.getName().isEmpty())
        .findFirst();
    if (to.isEmpty()) {
      return Optional.empty();
    }
    self.moveLeader(to.get().getId());
    LOG.info("stopping: moved leadership to {}", to.get().getName());
    return Optional.of(to.get().getName());
  }
}
