package cloud.gardener.druid.operator.status;

import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.operator.observe.AgentView;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** status.members: one entry per member pod that exists, from the observation. */
final class MemberStatuses {

  static final String READY = "Ready";
  static final String NOT_READY = "NotReady";

  private MemberStatuses() {
  }

  static List<EtcdMemberStatus> compute(ClusterSnapshot snapshot, DesiredMembers desired,
      List<EtcdMemberStatus> previous, Instant now) {
    return snapshot.members().stream()
        .filter(m -> m.podExists() || m.ordinal() < snapshot.replicas())
        .map(m -> member(desired, m, previous, now))
        .toList();
  }

  private static EtcdMemberStatus member(DesiredMembers desired, MemberObservation m,
      List<EtcdMemberStatus> previous, Instant now) {
    EtcdMemberStatus s = new EtcdMemberStatus();
    s.setName(m.name());
    m.agent().map(AgentView::memberId).ifPresent(s::setId);
    s.setRole(m.agent().map(AgentView::role).orElse(null));
    boolean ready = m.ready();
    s.setStatus(ready ? READY : NOT_READY);
    s.setReason(reason(m, ready));
    s.setMemberRevision(m.podRevision().orElse(null));
    s.setVolumeRevision(m.volumeRevision().orElse(null));
    s.setUpdated(m.updated(desired));
    EtcdMemberStatus prev = previous == null ? null : previous.stream()
        .filter(p -> m.name().equals(p.getName())).findFirst().orElse(null);
    s.setLastTransitionTime(prev != null && Objects.equals(prev.getStatus(), s.getStatus())
        && prev.getLastTransitionTime() != null ? prev.getLastTransitionTime() : now.toString());
    return s;
  }

  private static String reason(MemberObservation m, boolean ready) {
    if (!m.podExists()) {
      return "PodMissing";
    }
    if (m.podTerminating()) {
      return "PodTerminating";
    }
    if (ready) {
      return "MemberReady";
    }
    // how far is in the AllMembersReady condition's message
    return m.restoring().isPresent() ? "Restoring" : "PodNotReady";
  }
}
