package cloud.gardener.druid.operator.agent;

import java.util.Optional;

/**
 * One answer of a member's agent: its view of etcd once etcd runs, and while the member
 * restores from the backup store how far that is (the agent's own words, e.g. "restoring: 3
 * of 40 delta snapshots replayed"), and what etcd's initial corruption check found when it
 * refused the member's data. Empty when the agent does not answer.
 */
public record AgentReport(Optional<AgentView> view, Optional<String> restoring,
    Optional<String> initFailure, Optional<String> corruption) {

  public static final AgentReport NONE = new AgentReport(Optional.empty(), Optional.empty());

  public AgentReport(Optional<AgentView> view, Optional<String> restoring,
      Optional<String> initFailure) {
    this(view, restoring, initFailure, Optional.empty());
  }

  /** {@code initFailure}: why the agent's last initialisation failed (it retries). */
  public AgentReport(Optional<AgentView> view, Optional<String> restoring) {
    this(view, restoring, Optional.empty());
  }

  public static AgentReport of(Optional<AgentView> view) {
    return new AgentReport(view, Optional.empty());
  }
}
