package cloud.gardener.druid.agent;

import cloud.gardener.druid.agent.config.MemberConfig;
import cloud.gardener.druid.agent.etcd.EtcdProcess;
import cloud.gardener.druid.agent.etcd.LeaderHandOver;
import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.util.Closeables;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the agent's etcd ends: etcd refused this member's data at its initial corruption check
 * (the agent then stays up to say so until the member is replaced), etcd exited on its own,
 * or the agent stops it (leadership handed over, the agent's client closed, then SIGTERM).
 */
final class EtcdEnding {

  /** The agent's logger: these lines read as the agent's own. */
  private static final Logger LOG = LoggerFactory.getLogger(Agent.class);

  private final MemberConfig member;
  /** What etcd's initial corruption check found; the member then waits to be replaced. */
  private volatile String corruption;

  EtcdEnding(MemberConfig member) {
    this.member = member;
  }

  /**
   * The agent's exit code once etcd exited with {@code code}: 0 after a requested stop; after
   * etcd refused this member's data, 0 once the agent is stopped (it waits until then);
   * otherwise etcd's code, or 1.
   */
  int afterExit(EtcdProcess etcd, int code, BooleanSupplier stopping, Runnable stopServices,
      Semaphore wake) throws InterruptedException {
    Optional<String> inconsistency = etcd.dataInconsistency();
    if (!stopping.getAsBoolean() && inconsistency.isPresent()) {
      return awaitReplacement(inconsistency.get(), stopping, stopServices, wake);
    }
    if (stopping.getAsBoolean()) {
      LOG.info("etcd stopped (exit {})", code);
      return 0;
    }
    LOG.error("etcd exited unexpectedly with code {}; the next start validates the data fully",
        code);
    return code == 0 ? 1 : code;
  }

  /**
   * etcd refused this member's data: starting it again would refuse again (or, with the
   * peers away, serve the corrupted data), so the agent stays up to report it until the
   * member is replaced.
   */
  private int awaitReplacement(String inconsistency, BooleanSupplier stopping,
      Runnable stopServices, Semaphore wake) throws InterruptedException {
    corruption = inconsistency + ": replace this member's volume (EtcdOpsTask"
        + " replaceMemberVolume, kubectl druid replace-member-volume)";
    LOG.error("member {}: {}", member.name(), corruption);
    stopServices.run();
    while (!stopping.getAsBoolean()) {
      wake.tryAcquire(1, TimeUnit.SECONDS);
    }
    return 0;
  }

  Optional<String> corruption() {
    return Optional.ofNullable(corruption);
  }

  /**
   * The etcd half of the agent's stop, after its own work stopped: leadership moves to
   * another voting member when this one leads ({@link LeaderHandOver}, at most
   * {@link Agent#LEADER_TRANSFER_TIMEOUT}); the agent's etcd client with its watch streams
   * closes; only then etcd gets SIGTERM (grace period, then SIGKILL). A clean exit removes
   * the running marker.
   */
  void stop(EtcdProcess etcd, MemberClient client, CompletableFuture<MemberClient> warmClient) {
    if (etcd != null && etcd.isAlive()) {
      LeaderHandOver.ifLeader(client, Agent.LEADER_TRANSFER_TIMEOUT);
    }
    // the client is closed now, or as soon as its warm-up ends
    warmClient.thenAccept(Closeables::closeQuietly);
    if (etcd != null) {
      LOG.info("stopping: the agent's watches and etcd client are closed; sending SIGTERM to"
          + " etcd");
      long started = System.nanoTime();
      int code = etcd.stop(Duration.ofSeconds(30));
      LOG.info("stopping: etcd stopped {} ms after SIGTERM (exit {})",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), code);
      if (isCleanExit(code)) {
        deleteRunningMarker();
      }
    }
  }

  /** etcd ends by re-raising SIGTERM after its graceful shutdown: 128 + 15. */
  private static boolean isCleanExit(int code) {
    return code == 0 || code == 143;
  }

  private void deleteRunningMarker() {
    try {
      Files.deleteIfExists(member.dataDir().resolve(Agent.RUNNING_MARKER));
    } catch (IOException e) {
      LOG.warn("cannot delete the running marker: {}", e.toString());
    }
  }
}
