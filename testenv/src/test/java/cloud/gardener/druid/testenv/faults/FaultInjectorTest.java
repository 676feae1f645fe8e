package cloud.gardener.druid.testenv.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.testenv.process.Signals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real processes: a shell as the "agent" with a child whose command name is etcd. */
class FaultInjectorTest {

  @TempDir
  Path dir;

  private Process agent;
  private final AtomicInteger operatorKills = new AtomicInteger();
  private final java.util.List<String> apiServer = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeEach
  void startAgentWithEtcdChild() throws IOException, InterruptedException {
    Path etcd = dir.resolve("etcd");
    Files.copy(Path.of("/bin/sleep"), etcd, StandardCopyOption.COPY_ATTRIBUTES);
    agent = new ProcessBuilder("sh", "-c", etcd + " 300 & wait $!").start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Signals.childNamed(agent.pid(), "etcd").isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20); // the shell forks its child
    }
  }

  @AfterEach
  void stop() {
    Signals.childNamed(agent.pid(), "etcd").ifPresent(p -> Signals.send(p, Signals.Signal.KILL));
    agent.destroyForcibly();
  }

  private FaultInjector injector() {
    return new FaultInjector(new FaultTargets() {
      @Override
      public long agentPid(int member) {
        return agent.pid();
      }

      @Override
      public int leader() {
        return 0;
      }

      @Override
      public void killOperator() {
        operatorKills.incrementAndGet();
      }

      @Override
      public String killLeadingOperator() {
        operatorKills.incrementAndGet();
        return "operator-2 (leader)";
      }

      @Override
      public void killApiServer() {
        apiServer.add("kill " + System.nanoTime());
      }

      @Override
      public void restartApiServer() {
        apiServer.add("restart " + System.nanoTime());
      }
    });
  }

  private static Fault fault(FaultKind kind, long holdMillis) {
    return new Fault(1, kind, 0, Duration.ofMillis(holdMillis), false);
  }

  @Test
  void aPausedEtcdIsStoppedForItsHoldAndRunsAgainAfterwards() throws Exception {
    long etcd = Signals.childNamed(agent.pid(), "etcd").orElseThrow();
    var states = new java.util.concurrent.CopyOnWriteArrayList<String>();
    Thread observer = new Thread(() -> {
      for (int i = 0; i < 20; i++) {
        Signals.state(etcd).ifPresent(states::add);
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    observer.start();
    FaultInjector.Applied applied = injector().apply(fault(FaultKind.LEADER_PAUSE, 800));
    observer.join();
    assertThat(applied.pid()).isEqualTo(etcd);
    assertThat(applied.target()).isEqualTo("etcd of member 0 (leader)");
    assertThat(Duration.between(applied.started(), applied.ended())).isGreaterThanOrEqualTo(
        Duration.ofMillis(800));
    assertThat(states).contains("T");
    assertThat(Signals.state(etcd)).hasValueSatisfying(s -> assertThat(s).isNotEqualTo("T"));
  }

  @Test
  void aKilledEtcdIsGoneAndItsAgentSeesItExit() throws Exception {
    long etcd = Signals.childNamed(agent.pid(), "etcd").orElseThrow();
    injector().apply(fault(FaultKind.ETCD_KILL, 0));
    assertThat(agent.waitFor(10, TimeUnit.SECONDS)).isTrue(); // wait $! returns its status
    assertThat(agent.exitValue()).isEqualTo(128 + 9);
    assertThat(Signals.running(etcd)).isFalse();
  }

  @Test
  void aKilledAgentEndsWithSigkill() throws Exception {
    injector().apply(fault(FaultKind.AGENT_KILL, 0));
    assertThat(agent.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(agent.exitValue()).isEqualTo(128 + 9);
  }

  @Test
  void theOperatorIsKilledThroughItsTargets() throws Exception {
    FaultInjector.Applied applied = injector().apply(fault(FaultKind.OPERATOR_KILL, 0));
    assertThat(operatorKills).hasValue(1);
    assertThat(applied.target()).isEqualTo("operator");
  }

  @Test
  void theLeadingOperatorReplicaIsKilledThroughItsTargetsAndNamed() throws Exception {
    FaultInjector.Applied applied = injector().apply(fault(FaultKind.OPERATOR_FAILOVER, 0));
    assertThat(operatorKills).hasValue(1);
    assertThat(applied.target()).isEqualTo("operator-2 (leader)");
  }

  @Test
  void theApiServerIsKilledAndRestartedAfterTheHold() throws Exception {
    FaultInjector.Applied applied = injector().apply(fault(FaultKind.APISERVER_KILL, 300));
    assertThat(apiServer).hasSize(2);
    assertThat(apiServer.get(0)).startsWith("kill ");
    assertThat(apiServer.get(1)).startsWith("restart ");
    long down = Long.parseLong(apiServer.get(1).substring(8))
        - Long.parseLong(apiServer.get(0).substring(5));
    assertThat(Duration.ofNanos(down)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    assertThat(applied.target()).isEqualTo("kube-apiserver");
    assertThat(applied.ended()).isAfterOrEqualTo(applied.started().plusMillis(300));
  }

  @Test
  void aMemberWithoutEtcdIsNamed() throws Exception {
    Signals.send(Signals.childNamed(agent.pid(), "etcd").orElseThrow(), Signals.Signal.KILL);
    assertThat(agent.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(() -> injector().apply(fault(FaultKind.ETCD_PAUSE, 100)))
        .hasMessageContaining("member 0 runs no etcd");
  }
}
