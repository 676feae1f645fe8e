package cloud.gardener.druid.operator.status;

import static cloud.gardener.druid.api.ConditionTypes.ALL_MEMBERS_READY;
import static cloud.gardener.druid.api.ConditionTypes.ALL_MEMBERS_UPDATED;
import static cloud.gardener.druid.api.ConditionTypes.CLUSTER_ID_MISMATCH;
import static cloud.gardener.druid.api.ConditionTypes.DATA_VOLUMES_READY;
import static cloud.gardener.druid.api.ConditionTypes.FALSE;
import static cloud.gardener.druid.api.ConditionTypes.READY;
import static cloud.gardener.druid.api.ConditionTypes.TRUE;
import static cloud.gardener.druid.api.ConditionTypes.UNKNOWN;
import static cloud.gardener.druid.api.ConditionTypes.VOLUMES_UP_TO_DATE;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.volume.ReplacementConfirmation;
import cloud.gardener.druid.operator.volume.VolumeChange;
import cloud.gardener.druid.operator.volume.VolumeChanges;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Computes the conditions of an Etcd from one observation and the desired members. */
final class ConditionComputer {

  private ConditionComputer() {
  }

  static List<Condition> compute(ClusterSnapshot s, DesiredMembers desired,
      VolumeOperation volumeOperation) {
    List<Condition> conditions = new ArrayList<>();
    conditions.add(ready(s));
    conditions.add(allMembersReady(s));
    conditions.add(allMembersUpdated(s, desired, volumeOperation));
    BackupReadiness.compute(s).ifPresent(conditions::add);
    BackupVerification.compute(s).ifPresent(conditions::add);
    DataConsistency.compute(s).ifPresent(conditions::add);
    conditions.add(dataVolumesReady(s));
    conditions.add(clusterIdMismatch(s));
    conditions.add(volumesUpToDate(s, desired, VolumeChanges.of(s, desired), volumeOperation));
    UpstreamFields.condition(s.etcd()).ifPresent(conditions::add);
    return conditions;
  }

  static Condition ready(ClusterSnapshot s) {
    List<MemberObservation> wanted = s.wanted();
    if (wanted.isEmpty()) {
      return Conditions.of(READY, UNKNOWN, "NoMembers", "The cluster has no members.");
    }
    long ready = s.readyMembers();
    int voting = s.votingMembers();
    return ready >= s.quorum()
        ? Conditions.of(READY, TRUE, "Quorate", ready + " members are ready, " + s.quorum()
            + " of " + voting + " voting members are needed.")
        : Conditions.of(READY, FALSE, "QuorumLost", "Only " + ready + " members are ready; "
            + s.quorum() + " of " + voting + " voting members are needed.");
  }

  static Condition allMembersReady(ClusterSnapshot s) {
    List<String> notReady = s.wanted().stream().filter(m -> !m.ready())
        .map(m -> m.name() + m.restoring().map(r -> " (" + r + ")").orElse("")).toList();
    return notReady.isEmpty()
        ? Conditions.of(ALL_MEMBERS_READY, TRUE, "AllMembersReady", "All members are ready.")
        : Conditions.of(ALL_MEMBERS_READY, FALSE, "NotAllMembersReady",
            "Members not ready: " + String.join(", ", notReady) + ".");
  }

  /**
   * True only when every wanted member runs the desired pod revision on an updated volume, no
   * surplus member (scale-in) is left and no volume operation runs (its members are not all in
   * their final place). Terminating pods never count as updated.
   */
  static Condition allMembersUpdated(ClusterSnapshot s, DesiredMembers desired,
      VolumeOperation volumeOperation) {
    List<String> outdated = new ArrayList<>();
    for (MemberObservation m : s.wanted()) {
      if (!m.podUpdated(desired.podRevision())) {
        outdated.add(m.name() + (m.podExists() ? " (pod)" : " (no pod)"));
      } else if (!m.metadataUpdated(desired.metadataRevision())) {
        outdated.add(m.name() + " (labels and annotations)");
      } else if (!m.volumeUpdated(desired.volumeRevision(), desired.capacity())) {
        outdated.add(m.name() + " (volume)");
      }
    }
    s.surplus().forEach(m -> outdated.add(m.name() + " (to be removed)"));
    if (volumeOperation != null && !volumeOperation.isFinished()) {
      outdated.add("volume operation " + volumeOperation.getType() + " in phase "
          + volumeOperation.getPhase());
    }
    return outdated.isEmpty()
        ? Conditions.of(ALL_MEMBERS_UPDATED, TRUE, "AllMembersUpdated",
            "All members run revision " + desired.podRevision() + ".")
        : Conditions.of(ALL_MEMBERS_UPDATED, FALSE, "NotAllMembersUpdated",
            "Members not updated: " + String.join(", ", outdated) + ".");
  }

  static Condition dataVolumesReady(ClusterSnapshot s) {
    List<String> unbound = s.wanted().stream()
        .filter(m -> m.pvc().map(p -> p.getStatus() == null
            || !"Bound".equals(p.getStatus().getPhase())).orElse(true))
        .map(MemberObservation::name).toList();
    return unbound.isEmpty()
        ? Conditions.of(DATA_VOLUMES_READY, TRUE, "BoundDataVolumes", "All data volumes are bound.")
        : Conditions.of(DATA_VOLUMES_READY, FALSE, "UnboundDataVolumes",
            "Volumes of members not bound: " + String.join(", ", unbound) + ".");
  }

  static Condition clusterIdMismatch(ClusterSnapshot s) {
    Set<String> ids = s.members().stream().flatMap(m -> m.agent().stream())
        .map(AgentView::clusterId).filter(id -> id != null && !id.isEmpty())
        .collect(Collectors.toCollection(TreeSet::new));
    return ids.size() > 1
        ? Conditions.of(CLUSTER_ID_MISMATCH, TRUE, "ClusterIDMismatch",
            "Members report more than one cluster id: " + String.join(", ", ids) + ".")
        : Conditions.of(CLUSTER_ID_MISMATCH, FALSE, "NoClusterIDMismatch",
            "Members report one cluster id.");
  }

  /**
   * False while a volume operation runs (Replacing / Restoring), while a replacement awaits
   * its confirmation (AwaitingConfirmation) or cannot be done (NoBackupStore), while volumes
   * grow (Expanding), and while a volume is otherwise not as the spec asks (Pending).
   */
  static Condition volumesUpToDate(ClusterSnapshot s, DesiredMembers desired,
      VolumeChanges v, VolumeOperation op) {
    if (op != null && !op.isFinished()) {
      boolean replacing = op.kind().filter(k -> k == VolumeOperation.Kind.REPLACE
          || k == VolumeOperation.Kind.REPLACE_MEMBER_VOLUME).isPresent();
      return Conditions.of(VOLUMES_UP_TO_DATE, FALSE, replacing ? "Replacing" : "Restoring",
          op.getType() + " in phase " + op.getPhase()
              + (op.getCurrentMember() == null ? "" : ", member " + op.getCurrentMember())
              + (op.getCompletedMembers() == null || op.getCompletedMembers().isEmpty() ? ""
                  : ", done: " + String.join(", ", op.getCompletedMembers()))
              + (op.getTask() == null ? "" : " (task " + op.getTask() + ")") + ".");
    }
    if (!v.needing(VolumeChange.REPLACE).isEmpty()) {
      String what = v.describe(VolumeChange.REPLACE, i -> s.members().get(i).name());
      if (s.replicas() == 1 && !EtcdDefaults.hasStore(s.etcd())) {
        return Conditions.of(VOLUMES_UP_TO_DATE, FALSE, "NoBackupStore", "Volumes need"
            + " replacement (" + what + "), but a single member without a backup store would"
            + " lose its data: configure spec.backup.store or revert the volume change.");
      }
      if (!ReplacementConfirmation.isConfirmed(s.etcd())) {
        return Conditions.of(VOLUMES_UP_TO_DATE, FALSE, "AwaitingConfirmation", "Volumes need"
            + " replacement (" + what + "). " + (s.replicas() == 1
                ? "A full snapshot is taken, then the member is deleted with its volume and"
                    + " restored from the snapshot on a new one."
                : "A full snapshot is taken, then one member at a time is removed, recreated"
                    + " on a new volume and rejoins.")
            + " Confirm with: " + ReplacementConfirmation.howToConfirm(s.etcd()));
      }
      return Conditions.of(VOLUMES_UP_TO_DATE, FALSE, "Replacing",
          "Volume replacement confirmed: " + what + ".");
    }
    List<String> growing = s.wanted().stream()
        .filter(m -> v.change(m.ordinal()) == VolumeChange.GROW || m.fileSystemResizePending()
            || (m.pvc().isPresent() && !m.volumeUpdated(desired.volumeRevision(),
                desired.capacity()) && grownRequest(desired, m)))
        .map(MemberObservation::name).toList();
    if (!growing.isEmpty()) {
      return Conditions.of(VOLUMES_UP_TO_DATE, FALSE, "Expanding", "Volumes of members growing to "
          + desired.capacity() + ": " + String.join(", ", growing) + ".");
    }
    List<String> pending = s.wanted().stream().filter(m -> m.pvc().isPresent())
        .filter(m -> !m.volumeUpdated(desired.volumeRevision(), desired.capacity()))
        .map(MemberObservation::name).toList();
    return pending.isEmpty()
        ? Conditions.of(VOLUMES_UP_TO_DATE, TRUE, "VolumesUpToDate", "No volume change is pending.")
        : Conditions.of(VOLUMES_UP_TO_DATE, FALSE, "Pending",
            "Volumes of members differ from the spec: " + String.join(", ", pending) + ".");
  }

  /** The claim already requests the desired size, but its capacity has not reached it. */
  private static boolean grownRequest(DesiredMembers desired, MemberObservation m) {
    var requests = m.pvc().get().getSpec() == null || m.pvc().get().getSpec().getResources() == null
        ? null : m.pvc().get().getSpec().getResources().getRequests();
    var request = requests == null ? null : requests.get("storage");
    return request != null
        && request.getNumericalAmount().compareTo(desired.capacity().getNumericalAmount()) == 0;
  }
}
