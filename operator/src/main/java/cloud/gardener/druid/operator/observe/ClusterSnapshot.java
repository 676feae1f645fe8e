package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.api.agent.Membership;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.agent.AgentView;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.VolumeView;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One consistent observation of an Etcd's cluster: every decision and every status write is
 * computed from one snapshot, never from separate reads. It holds only what was read; what
 * the spec asks for ({@code model.DesiredMembers}) and the changes that follow from it are
 * decided by the planners.
 *
 * @param etcd the Etcd as read at the start of the observation
 * @param members every member that should exist or still exists, by ordinal
 * @param volumes the recorded volume operation, the volume task and the class's expandability
 */
public record ClusterSnapshot(Etcd etcd, List<MemberObservation> members,
    Optional<Lease> fullSnapshotLease, Optional<Lease> deltaSnapshotLease, Instant observedAt,
    VolumeView volumes, Optional<Lease> verificationLease) {

  public ClusterSnapshot(Etcd etcd, List<MemberObservation> members,
      Optional<Lease> fullSnapshotLease, Optional<Lease> deltaSnapshotLease, Instant observedAt) {
    this(etcd, members, fullSnapshotLease, deltaSnapshotLease, observedAt, VolumeView.none());
  }

  public ClusterSnapshot(Etcd etcd, List<MemberObservation> members,
      Optional<Lease> fullSnapshotLease, Optional<Lease> deltaSnapshotLease, Instant observedAt,
      VolumeView volumes) {
    this(etcd, members, fullSnapshotLease, deltaSnapshotLease, observedAt, volumes,
        Optional.empty());
  }

  public ClusterSnapshot withVolumes(VolumeView v) {
    return new ClusterSnapshot(etcd, members, fullSnapshotLease, deltaSnapshotLease, observedAt,
        v, verificationLease);
  }

  /** With the lease where restore drills report (addition, docs/backup-verification.md). */
  public ClusterSnapshot withVerificationLease(Optional<Lease> lease) {
    return new ClusterSnapshot(etcd, members, fullSnapshotLease, deltaSnapshotLease, observedAt,
        volumes, lease);
  }

  public int replicas() {
    return EtcdDefaults.replicas(etcd);
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

  /**
   * Members of the etcd cluster that are not this Etcd's (an existing cluster it joined), as
   * the agent with the largest view reports them; a member added but not started yet has no
   * name and is not among them.
   */
  public List<Membership> foreignMembers() {
    List<String> ours = members.stream().map(MemberObservation::name).toList();
    return members.stream().flatMap(m -> m.agent().stream())
        .map(AgentView::members).max(Comparator.comparingInt(List::size)).orElse(List.of())
        .stream().filter(x -> !x.name().isEmpty() && !ours.contains(x.name())).toList();
  }

  /** The name of the leader when it is not a member of this Etcd, as this Etcd's agents see it. */
  public Optional<String> foreignLeader() {
    Optional<String> leaderId = members.stream().flatMap(m -> m.agent().stream())
        .map(AgentView::leaderId).filter(id -> !id.isEmpty() && !"0".equals(id)).findFirst();
    return leaderId.flatMap(id -> foreignMembers().stream()
        .filter(x -> x.id().equals(id)).map(Membership::name).findFirst());
  }

  /** The number of ready members needed for quorum. */
  public int quorum() {
    return votingMembers() / 2 + 1;
  }

  /**
   * Ready members of this Etcd, and the voting members of an existing cluster it joined while
   * a ready member of this Etcd follows a leader: those are not observed one by one, but etcd
   * has a leader only with a quorum of voters behind it.
   */
  public long readyMembers() {
    long ours = members.stream().filter(MemberObservation::ready).count();
    boolean followsLeader = members.stream().filter(MemberObservation::ready)
        .flatMap(m -> m.agent().stream()).anyMatch(AgentView::healthy);
    return ours + (followsLeader
        ? foreignMembers().stream().filter(x -> !x.learner()).count() : 0);
  }

  public Optional<MemberObservation> leader() {
    return members.stream().filter(MemberObservation::isLeader).findFirst();
  }

  /** The leader when its pod is ready: snapshots and membership changes go through it. */
  public Optional<MemberObservation> readyLeader() {
    return leader().filter(MemberObservation::ready);
  }

  /**
   * The member safety gate: empty when every wanted member except {@code except} (may be
   * null) is a ready voting member; else why not, for the first that is not.
   */
  public Optional<String> whyNotAllVote(MemberObservation except) {
    return wanted().stream().filter(m -> except == null || m.ordinal() != except.ordinal())
        .map(MemberObservation::whyNotVoting).flatMap(Optional::stream).findFirst();
  }

  /**
   * Where leadership moves from {@code from} before {@code from} is disrupted: the wanted
   * member with the lowest ordinal that votes and also meets {@code also}.
   */
  public Optional<MemberObservation> leadershipTarget(MemberObservation from,
      Predicate<MemberObservation> also) {
    return wanted().stream().filter(m -> m.ordinal() != from.ordinal() && m.votes() && also.test(m))
        .findFirst();
  }

  /**
   * A ready voting member other than {@code m} through which {@code m}'s membership is changed:
   * the leader when it votes, else the lowest ordinal.
   */
  public Optional<MemberObservation> votingPeer(MemberObservation m) {
    return wanted().stream().filter(w -> w.ordinal() != m.ordinal() && w.votes())
        .sorted(Comparator.comparing((MemberObservation w) -> !w.isLeader()))
        .findFirst();
  }

  /** The order in which members are disrupted: followers from the highest ordinal, the leader last. */
  public static List<MemberObservation> rollOrder(List<MemberObservation> members) {
    return members.stream()
        .sorted(Comparator.comparing(MemberObservation::isLeader)
            .thenComparing(Comparator.comparingInt(MemberObservation::ordinal).reversed()))
        .toList();
  }
}
