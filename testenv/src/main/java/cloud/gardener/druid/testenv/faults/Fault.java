package cloud.gardener.druid.testenv.faults;

import java.time.Duration;

/**
 * One planned fault: round {@code round} (from 1), its kind, the member it hits (an index into
 * the members ordered by name; ignored for the leader and the operator), how long a held fault
 * lasts, and whether a rollout runs while it happens.
 */
public record Fault(int round, FaultKind kind, int member, Duration hold, boolean duringRollout) {

  /** One line: {@code round 3: etcd-pause member 1 for 2.5s during a rollout}. */
  public String describe() {
    String target = switch (kind) {
      case LEADER_PAUSE -> " of the leader";
      case OPERATOR_KILL, APISERVER_KILL -> "";
      case OPERATOR_FAILOVER -> " of the leading replica";
      case ETCD_KILL, AGENT_KILL, ETCD_PAUSE, AGENT_PAUSE -> " member " + member;
    };
    return kind.cliName() + target + (kind.isHeld() ? " for " + hold.toMillis() + "ms" : "")
        + (duringRollout ? " during a rollout" : "");
  }
}
