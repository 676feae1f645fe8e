package cloud.gardener.druid.testenv.faults;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The faults the injector can cause, each with the name {@code --faults} takes. */
public enum FaultKind {
  /** SIGKILL of a member's etcd: the agent exits with it and the pod's container restarts. */
  ETCD_KILL("etcd-kill"),
  /** SIGKILL of a member's agent (the container's main process): the whole pod tree ends. */
  AGENT_KILL("agent-kill"),
  /** SIGSTOP of a follower's (or any member's) etcd, SIGCONT after the hold. */
  ETCD_PAUSE("etcd-pause"),
  /** SIGSTOP of the leader's etcd, SIGCONT after the hold. */
  LEADER_PAUSE("leader-pause"),
  /** SIGSTOP of a member's agent, SIGCONT after the hold (its etcd keeps running). */
  AGENT_PAUSE("agent-pause"),
  /** SIGKILL of the operator; a new operator process starts at once, as a Deployment would. */
  OPERATOR_KILL("operator-kill"),
  /**
   * SIGKILL of kube-apiserver; the environment starts it again after the hold, on the same
   * address and etcd. The members do not need it; the operator must outlast the outage.
   */
  APISERVER_KILL("apiserver-kill"),
  /**
   * With two operator replicas: SIGKILL of the one that leads, always during a rollout; the
   * other must take over and finish it. A new replica starts at once, as a Deployment would.
   */
  OPERATOR_FAILOVER("operator-failover");

  private final String cliName;

  FaultKind(String cliName) {
    this.cliName = cliName;
  }

  public String cliName() {
    return cliName;
  }

  /**
   * Whether the fault is held for a while and then ended by the injector (SIGCONT; for the API
   * server its restart).
   */
  public boolean isHeld() {
    return switch (this) {
      case ETCD_PAUSE, LEADER_PAUSE, AGENT_PAUSE, APISERVER_KILL -> true;
      case ETCD_KILL, AGENT_KILL, OPERATOR_KILL, OPERATOR_FAILOVER -> false;
    };
  }

  /** Whether the fault always hits a rollout in progress (the plan says so for the others). */
  public boolean alwaysDuringRollout() {
    return this == OPERATOR_FAILOVER;
  }

  /** The kind named {@code name} (as {@code --faults} takes it). */
  public static FaultKind parse(String name) {
    return Arrays.stream(values()).filter(k -> k.cliName.equals(name.trim())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown fault '" + name
            + "'; choose from " + names(List.of(values()))));
  }

  public static String names(List<FaultKind> kinds) {
    return kinds.stream().map(FaultKind::cliName).collect(Collectors.joining(","));
  }
}
