package cloud.gardener.druid.operator.status;

import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * status.members: one entry per member pod that exists, from the observation. A member whose
 * agent was asked but gave no answer keeps what is known of it instead of losing it: its id
 * from the membership another agent reports or from the previous status, its role from the
 * other agents' views (the leader they follow, learner or not) or else the previous status,
 * and {@code agentNotAnsweringSince} says that it is not answering and since when.
 */
final class MemberStatuses {

  static final String READY = "Ready";
  static final String NOT_READY = "NotReady";
  static final String AGENT_NOT_ANSWERING = "AgentNotAnswering";
  static final String DATA_CORRUPTED = "DataCorrupted";

  private MemberStatuses() {
  }

  static List<EtcdMemberStatus> compute(ClusterSnapshot snapshot, DesiredMembers desired,
      List<EtcdMemberStatus> previous, Instant now) {
    return snapshot.members().stream()
        .filter(m -> m.podExists() || m.ordinal() < snapshot.replicas())
        .map(m -> member(snapshot, desired, m, previous(previous, m), now))
        .toList();
  }

  private static EtcdMemberStatus member(ClusterSnapshot snapshot, DesiredMembers desired,
      MemberObservation m, Optional<EtcdMemberStatus> prev, Instant now) {
    EtcdMemberStatus s = new EtcdMemberStatus();
    s.setName(m.name());
    boolean silent = agentSilent(m);
    if (silent) {
      s.setId(knownId(snapshot, m, prev));
      s.setRole(knownRole(snapshot, m, s.getId(), prev));
      s.setAgentNotAnsweringSince(prev.map(EtcdMemberStatus::getAgentNotAnsweringSince)
          .orElse(now.toString()));
      s.setEtcdVersion(prev.map(EtcdMemberStatus::getEtcdVersion).orElse(null));
    } else {
      m.agent().map(AgentView::memberId).ifPresent(s::setId);
      s.setRole(m.agent().map(AgentView::role).orElse(null));
      s.setEtcdVersion(m.agent().map(a -> a.versions().member()).orElse(null));
    }
    boolean ready = m.ready();
    s.setStatus(ready ? READY : NOT_READY);
    s.setReason(reason(m, ready, silent));
    s.setMemberRevision(m.podRevision().orElse(null));
    s.setVolumeRevision(m.volumeRevision().orElse(null));
    s.setUpdated(m.updated(desired));
    s.setDataCorruption(m.corruptionFound().orElse(null));
    s.setLastTransitionTime(prev.filter(p -> Objects.equals(p.getStatus(), s.getStatus()))
        .map(EtcdMemberStatus::getLastTransitionTime).orElse(now.toString()));
    return s;
  }

  /** The pod runs (not being deleted) but its agent said nothing, not even that it restores. */
  private static boolean agentSilent(MemberObservation m) {
    return m.podExists() && !m.podTerminating() && m.agent().isEmpty()
        && m.restoring().isEmpty() && m.corruption().isEmpty();
  }

  private static String knownId(ClusterSnapshot snapshot, MemberObservation m,
      Optional<EtcdMemberStatus> prev) {
    return membership(snapshot, m).map(Membership::id)
        .or(() -> prev.map(EtcdMemberStatus::getId)).orElse(null);
  }

  private static String knownRole(ClusterSnapshot snapshot, MemberObservation m, String id,
      Optional<EtcdMemberStatus> prev) {
    Optional<Membership> entry = membership(snapshot, m);
    if (entry.isEmpty()) {
      return prev.map(EtcdMemberStatus::getRole).orElse(null);
    }
    if (entry.get().learner()) {
      return "Learner";
    }
    boolean followed = views(snapshot).anyMatch(v -> id != null && id.equals(v.leaderId()));
    return followed ? "Leader" : "Member";
  }

  /** This member's entry in the membership the answering agents report. */
  private static Optional<Membership> membership(ClusterSnapshot snapshot,
      MemberObservation m) {
    return views(snapshot).flatMap(v -> v.members().stream())
        .filter(e -> m.name().equals(e.name())).findFirst();
  }

  private static java.util.stream.Stream<AgentView> views(ClusterSnapshot snapshot) {
    return snapshot.members().stream().flatMap(o -> o.agent().stream());
  }

  private static Optional<EtcdMemberStatus> previous(List<EtcdMemberStatus> previous,
      MemberObservation m) {
    return previous == null ? Optional.empty()
        : previous.stream().filter(p -> m.name().equals(p.getName())).findFirst();
  }

  private static String reason(MemberObservation m, boolean ready, boolean silent) {
    if (!m.podExists()) {
      return "PodMissing";
    }
    if (m.podTerminating()) {
      return "PodTerminating";
    }
    if (m.corruptionFound().isPresent()) {
      return DATA_CORRUPTED;
    }
    if (ready) {
      return silent ? AGENT_NOT_ANSWERING : "MemberReady";
    }
    // how far is in the AllMembersReady condition's message
    return m.restoring().isPresent() ? "Restoring" : "PodNotReady";
  }
}
