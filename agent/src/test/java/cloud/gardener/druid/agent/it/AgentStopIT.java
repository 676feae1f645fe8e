package cloud.gardener.druid.agent.it;

import static cloud.gardener.druid.agent.testing.LocalEtcd.countPrefix;
import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.AgentApi;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to a leading agent whose delta watch is open: the agent closes its own watches and
 * etcd client before etcd gets SIGTERM, exits cleanly and leaves a data directory the next
 * start accepts as valid. Prints the stop times beside those of a plain etcd (a measurement,
 * not a limit: agent/README.md quotes it).
 */
class AgentStopIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOST = "127.0.0.1";
  private static final String CLOSED = "the agent's watches and etcd client are closed";
  /** etcd's own log line when its signal handler starts the graceful stop. */
  private static final String ETCD_SIGNALLED = "received signal; shutting down";

  @TempDir
  Path work;

  @Test
  void theAgentClosesItsStreamsBeforeEtcdStopsAndLeavesValidData() throws Exception {
    Path logs = AgentProcess.logDir("AgentStopIT");
    List<Long> plainEtcdMillis = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      LocalEtcd etcd = new LocalEtcd("plain", work.resolve("plain-" + round),
          logs.resolve("plain-etcd-" + round + ".log"));
      etcd.putKeys("/k/", 0, 1_000);
      long started = System.nanoTime();
      etcd.close();
      plainEtcdMillis.add(millisSince(started));
    }

    int clientPort = LoopbackPorts.on(HOST);
    int peerPort = LoopbackPorts.on(HOST);
    int serverPort = LoopbackPorts.on(HOST);
    Path dataDir = work.resolve("data/new.etcd");
    List<String> args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=http://" + HOST + ":" + peerPort, dataDir);
    args.addAll(AgentArgs.localStore(work.resolve("backups")));
    URI clientUrl = URI.create("http://" + HOST + ":" + clientPort);

    AgentProcess first = new AgentProcess(args, HOST, serverPort, logs.resolve("agent-1.log"));
    long firstStop;
    try (first) {
      first.awaitReady(Duration.ofSeconds(90));
      first.post(AgentApi.SNAPSHOT_FULL);
      long written;
      // closed before the stop: etcd's graceful stop also waits (about 1 s) for any other
      // client's connection, even an idle one
      try (MemberClient client = new MemberClient(clientUrl, Optional.empty())) {
        SingleMemberAgentIT.putKeys(client, "/k/", 0, 1_000);
        written = client.revision();
      }
      Awaitility.await("a delta up to revision " + written).atMost(Duration.ofSeconds(60))
          .ignoreExceptions().until(() -> JSON.readTree(first.get(AgentApi.SNAPSHOT_LATEST)
              .body()).path("deltaSnapshots").findValues("endRevision").stream()
              .anyMatch(r -> r.asLong() >= written));
      long started = System.nanoTime();
      assertThat(first.stop()).as("exit code after SIGTERM").isIn(0, 143);
      firstStop = millisSince(started);
      String log = first.log();
      assertThat(log).contains(CLOSED).contains(ETCD_SIGNALLED);
      assertThat(log.indexOf(CLOSED)).as("streams closed before etcd got SIGTERM")
          .isLessThan(log.indexOf(ETCD_SIGNALLED));
    }
    assertThat(dataDir.resolve("druid-etcd-running")).as("removed only by a clean stop")
        .doesNotExist();

    AgentProcess second = new AgentProcess(args, HOST, serverPort, logs.resolve("agent-2.log"));
    long secondStop;
    try (second) {
      second.awaitReady(Duration.ofSeconds(90));
      assertThat(second.log()).contains("initialisation done: VALID_DATA");
      try (MemberClient client = new MemberClient(clientUrl, Optional.empty())) {
        assertThat(countPrefix(client, "/k/")).isEqualTo(1_000);
      }
      long started = System.nanoTime();
      assertThat(second.stop()).as("exit code after SIGTERM").isIn(0, 143);
      secondStop = millisSince(started);
    }
    System.out.printf("stop after SIGTERM until the process exited: plain etcd %s ms; "
        + "agent with its etcd (delta watch open) %d ms, %d ms%n", plainEtcdMillis, firstStop,
        secondStop);
  }

  private static long millisSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }
}
