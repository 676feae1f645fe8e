package cloud.gardener.druid.operator.status;

import static cloud.gardener.druid.api.ConditionTypes.DATA_CONSISTENT;
import static cloud.gardener.druid.api.ConditionTypes.FALSE;
import static cloud.gardener.druid.api.ConditionTypes.TRUE;
import static cloud.gardener.druid.api.ConditionTypes.UNKNOWN;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.List;
import java.util.Optional;

/**
 * DataConsistent (addition, docs/backup-verification.md): what etcd's own corruption checks in
 * the members say. False naming each member whose data etcd found to differ from its peers'
 * and the cure, or, for a CORRUPT alarm naming no member (etcd 3.5), where to find it; True when every member's agent answered and none did; Unknown when some did
 * not answer; absent without members (hibernated).
 */
final class DataConsistency {

  static final String CORRUPTION_DETECTED = "CorruptionDetected";
  static final String CORRUPTION_NOT_ATTRIBUTED = "CorruptionNotAttributed";

  private DataConsistency() {
  }

  static Optional<Condition> compute(ClusterSnapshot s) {
    List<MemberObservation> wanted = s.wanted();
    if (wanted.isEmpty() || s.replicas() == 0) {
      return Optional.empty();
    }
    List<String> corrupted = wanted.stream()
        .flatMap(m -> m.corruptionFound().map(c -> m.name() + " (" + c + ")").stream())
        .toList();
    if (!corrupted.isEmpty()) {
      String etcd = s.etcd().getMetadata().getName();
      List<String> cures = wanted.stream().filter(m -> m.corruptionFound().isPresent())
          .map(m -> "kubectl druid replace-member-volume " + etcd + " " + m.name()).toList();
      return Optional.of(Conditions.of(DATA_CONSISTENT, FALSE, CORRUPTION_DETECTED,
          "etcd's corruption checks found data differing from the peers' on "
              + String.join("; ", corrupted) + ". Replace the volume of each (EtcdOpsTask"
              + " replaceMemberVolume): " + String.join("; ", cures) + "."));
    }
    if (wanted.stream().anyMatch(m -> m.agent().flatMap(AgentView::space)
        .filter(sp -> sp.unnamedAlarms().contains(MemberObservation.CORRUPT_ALARM)).isPresent())) {
      return Optional.of(Conditions.of(DATA_CONSISTENT, FALSE, CORRUPTION_NOT_ATTRIBUTED,
          "etcd raised a CORRUPT alarm naming no member (etcd 3.5's periodic corruption check"
              + " cannot tell which side differs) and refuses every write. The leader's etcd"
              + " log names the member whose hash differs ('found hash mismatch' for the leader"
              + " itself, 'follower-peer-id' for a follower): replace that member's volume"
              + " (kubectl druid replace-member-volume " + s.etcd().getMetadata().getName()
              + " MEMBER), then disarm the alarm (etcdctl alarm disarm)."));
    }
    List<String> unknown = wanted.stream()
        .filter(m -> m.agent().isEmpty()).map(MemberObservation::name).toList();
    return Optional.of(unknown.isEmpty()
        ? Conditions.of(DATA_CONSISTENT, TRUE, "NoCorruptionFound",
            "etcd's corruption checks found no member whose data differs from its peers'.")
        : Conditions.of(DATA_CONSISTENT, UNKNOWN, "NotAllMembersAnswered",
            "etcd's corruption checks found nothing on the members that answered; not"
                + " answering: " + String.join(", ", unknown) + "."));
  }
}
