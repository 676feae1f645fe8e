package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.volume.VolumeView;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One consistent observation of an Etcd's cluster: every decision and every status write is
 * computed from one snapshot, never from separate reads.
 *
 * @param etcd the Etcd as read at the start of the observation
 * @param desiredPodRevision the member-revision the Etcd's spec asks for
 * @param desiredVolumeRevision the volume-revision the Etcd's spec asks for
 * @param members every member that should exist or still exists, by ordinal
 * @param volumes volume changes, the recorded volume operation and the volume task
 */
public record ClusterSnapshot(Etcd etcd, String desiredPodRevision, String desiredVolumeRevision,
    List<MemberObservation> members, Optional<Lease> fullSnapshotLease,
    Optional<Lease> deltaSnapshotLease, Instant observedAt, VolumeView volumes) {

  public ClusterSnapshot(Etcd etcd, String desiredPodRevision, String desiredVolumeRevision,
      List<MemberObservation> members, Optional<Lease> fullSnapshotLease,
      Optional<Lease> deltaSnapshotLease, Instant observedAt) {
    this(etcd, desiredPodRevision, desiredVolumeRevision, members, fullSnapshotLease,
        deltaSnapshotLease, observedAt, VolumeView.none());
  }

  public ClusterSnapshot withVolumes(VolumeView v) {
    return new ClusterSnapshot(etcd, desiredPodRevision, desiredVolumeRevision, members,
        fullSnapshotLease, deltaSnapshotLease, observedAt, v);
  }

  public int replicas() {
    return EtcdDefaults.replicas(etcd);
  }

  public Quantity desiredCapacity() {
    return EtcdDefaults.storageCapacity(etcd);
  }

  /** Members with ordinal below spec.replicas (existing or not). */
  public List<MemberObservation> wanted() {
    return members.stream().filter(m -> m.ordinal() < replicas()).toList();
  }

  /** Members with ordinal at or above spec.replicas that still have a pod or volume. */
  public List<MemberObservation> surplus() {
    return members.stream().filter(m -> m.ordinal() >= replicas())
        .filter(m -> m.podExists() || m.pvc().isPresent()).toList();
  }

  public boolean updated(MemberObservation m) {
    return m.podUpdated(desiredPodRevision)
        && m.volumeUpdated(desiredVolumeRevision, desiredCapacity());
  }

  /**
   * The number of voting members etcd knows of (learners excluded), as reported by the agent
   * with the largest view; when no agent answers, the number of wanted members.
   */
  public int votingMembers() {
    return members.stream().flatMap(m -> m.agent().stream())
        .filter(a -> !a.members().isEmpty())
        .mapToInt(a -> (int) a.members().stream().filter(x -> !x.learner()).count())
        .max().orElse(wanted().size());
  }

  /** The number of ready members needed for quorum. */
  public int quorum() {
    return votingMembers() / 2 + 1;
  }

  public long readyMembers() {
    return members.stream().filter(MemberObservation::ready).count();
  }

  public Optional<MemberObservation> leader() {
    return members.stream().filter(m -> m.agent().map(AgentView::isLeader).orElse(false)).findFirst();
  }
}
