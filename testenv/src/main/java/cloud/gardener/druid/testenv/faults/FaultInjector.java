package cloud.gardener.druid.testenv.faults;

import cloud.gardener.druid.testenv.process.Signals;
import cloud.gardener.druid.testenv.process.Signals.Signal;
import java.time.Duration;
import java.time.Instant;

/**
 * Causes one {@link Fault} on a local cluster whose pods run as processes: the signal to the
 * process it names, held faults held for their time and then ended (SIGCONT). What heals the
 * cluster afterwards is the system's own doing: the node simulator restarts a container whose
 * main process ended (and ends the container's whole process group first, as a kubelet ends a
 * container's cgroup), the operator reconciles.
 */
public final class FaultInjector {

  private final FaultTargets targets;

  public FaultInjector(FaultTargets targets) {
    this.targets = targets;
  }

  /** What was hit and when the fault ended (for a kill: when the signal was sent). */
  public record Applied(Fault fault, String target, long pid, Instant started, Instant ended) {
  }

  /** Causes {@code fault}, holding it for its hold time when it is held; returns when it ended. */
  public Applied apply(Fault fault) throws InterruptedException {
    Instant started = Instant.now();
    return switch (fault.kind()) {
      case ETCD_KILL -> signalOnce(fault, "etcd of member " + fault.member(),
          etcdPid(fault.member()), started);
      case AGENT_KILL -> signalOnce(fault, "agent of member " + fault.member(),
          targets.agentPid(fault.member()), started);
      case ETCD_PAUSE -> pause(fault, "etcd of member " + fault.member(),
          etcdPid(fault.member()), started);
      case LEADER_PAUSE -> {
        int leader = targets.leader();
        yield pause(fault, "etcd of member " + leader + " (leader)", etcdPid(leader), started);
      }
      case AGENT_PAUSE -> pause(fault, "agent of member " + fault.member(),
          targets.agentPid(fault.member()), started);
      case OPERATOR_KILL -> {
        targets.killOperator();
        yield new Applied(fault, "operator", -1, started, Instant.now());
      }
      case APISERVER_KILL -> apiServerOutage(fault, started);
      case OPERATOR_FAILOVER -> {
        String killed = targets.killLeadingOperator();
        yield new Applied(fault, killed, -1, started, Instant.now());
      }
    };
  }

  private long etcdPid(int member) {
    long agent = targets.agentPid(member);
    return Signals.childNamed(agent, "etcd").orElseThrow(() -> new IllegalStateException(
        "member " + member + " runs no etcd (agent pid " + agent + ")"));
  }

  private static Applied signalOnce(Fault fault, String target, long pid, Instant started) {
    send(pid, Signal.KILL, target);
    return new Applied(fault, target, pid, started, Instant.now());
  }

  private static Applied pause(Fault fault, String target, long pid, Instant started)
      throws InterruptedException {
    send(pid, Signal.STOP, target);
    try {
      Thread.sleep(fault.hold().toMillis()); // the fault itself: the process hangs this long
    } finally {
      // a paused agent may have been restarted meanwhile (liveness probe): nothing to resume
      Signals.send(pid, Signal.CONT);
    }
    return new Applied(fault, target, pid, started, Instant.now());
  }

  /** Down for the hold, then started again: the fault ends when the API server is ready. */
  private Applied apiServerOutage(Fault fault, Instant started) throws InterruptedException {
    targets.killApiServer();
    try {
      Thread.sleep(fault.hold().toMillis()); // the fault itself: the API is gone this long
    } finally {
      targets.restartApiServer();
    }
    return new Applied(fault, "kube-apiserver", -1, started, Instant.now());
  }

  private static void send(long pid, Signal signal, String target) {
    if (!Signals.send(pid, signal)) {
      throw new IllegalStateException("cannot send SIG" + signal + " to the " + target
          + " (pid " + pid + "): gone");
    }
  }

  /** How long a held fault is held at most; runs size their waits with it. */
  public static Duration maxHold() {
    return FaultPlan.MAX_HOLD;
  }
}
