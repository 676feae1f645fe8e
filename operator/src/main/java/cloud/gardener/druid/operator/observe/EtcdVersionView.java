package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.agent.AgentView.EtcdVersions;
import java.util.Objects;
import java.util.Optional;

/**
 * etcd's cluster version and enabled downgrade as the cluster reports them: the ready
 * leader's view, else the first voting member's (every member agrees once it applied the
 * leader's decision; the leader decides).
 */
public final class EtcdVersionView {

  private EtcdVersionView() {
  }

  public static EtcdVersions of(ClusterSnapshot s) {
    return s.readyLeader().or(() -> s.members().stream().filter(MemberObservation::votes)
            .findFirst())
        .flatMap(MemberObservation::agent).map(AgentView::versions)
        .orElse(EtcdVersions.UNKNOWN);
  }

  /**
   * Whether some member's agent reports its etcd version: such agents report the cluster
   * version too, so a missing one means etcd did not say, not an agent that cannot.
   */
  public static boolean reported(ClusterSnapshot s) {
    return s.members().stream().map(MemberObservation::agent).flatMap(Optional::stream)
        .map(AgentView::versions).map(EtcdVersions::member).anyMatch(Objects::nonNull);
  }
}
