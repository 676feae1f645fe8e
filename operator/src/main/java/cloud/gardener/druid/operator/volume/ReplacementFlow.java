package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.operator.observe.VolumeTask;

import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_COMPLETED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_REPLACING;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_SNAPSHOTTED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_SNAPSHOT_PENDING;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation.Kind;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.observe.ClusterHealth;
import cloud.gardener.druid.operator.action.RestartReason;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.action.RolloutAction.CreateVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteMemberAndVolume;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.PromoteLearner;
import cloud.gardener.druid.operator.action.RolloutAction.RecordVolumeOperation;
import cloud.gardener.druid.operator.action.RolloutAction.RemoveMember;
import cloud.gardener.druid.operator.action.RolloutAction.TakeFullSnapshot;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Replacement of member volumes: a storage change confirmed for the current generation
 * ({@code Replace}) or one member's volume ({@code ReplaceMemberVolume} task). A full snapshot
 * first (SnapshotPending), then one member at a time (Replacing, currentMember) in roll order
 * (followers from the highest ordinal, the leader last after leadership moved); for each:
 * stop it (pod deleted), remove it from etcd, delete its PVC, create both anew, the agent
 * joins as a learner, promote; the next member only starts once the current one is a ready
 * voting member. A single member restores from the snapshot instead.
 */
final class ReplacementFlow {

  private final ClusterHealth health;

  ReplacementFlow(ClusterHealth health) {
    this.health = health;
  }

  /** Starts a confirmed replacement of changed volumes; empty when there is none to start. */
  Optional<RolloutAction> start(ClusterSnapshot s, VolumeChanges changes) {
    if (changes.needing(VolumeChange.REPLACE).isEmpty()
        || !ReplacementConfirmation.isConfirmed(s.etcd())
        || (s.replicas() == 1 && !EtcdDefaults.hasStore(s.etcd()))) {
      return Optional.empty();
    }
    VolumeOperation op = VolumeSteps.newOperation(s, Kind.REPLACE, null, firstPhase(s));
    return Optional.of(new RecordVolumeOperation(op, "replacing volumes, confirmed for"
        + " generation " + op.getGeneration() + ": "
        + changes.describe(VolumeChange.REPLACE, i -> s.members().get(i).name())));
  }

  /** Starts a {@code replaceMemberVolume} task. */
  RolloutAction startTask(ClusterSnapshot s, VolumeTask task) {
    VolumeOperation op = VolumeSteps.newOperation(s, task.operation(), task.name(),
        firstPhase(s));
    return new RecordVolumeOperation(op, "replacing the volume of "
        + task.member().orElse("?") + " (task " + task.name() + ")");
  }

  private static String firstPhase(ClusterSnapshot s) {
    return EtcdDefaults.hasStore(s.etcd()) ? PHASE_SNAPSHOT_PENDING : PHASE_SNAPSHOTTED;
  }

  RolloutAction next(ClusterSnapshot s, VolumeChanges changes, VolumeOperation op) {
    if (PHASE_SNAPSHOT_PENDING.equals(op.getPhase())) {
      return snapshotFirst(s, op);
    }
    if (op.getCurrentMember() != null) {
      Optional<MemberObservation> current = s.wanted().stream()
          .filter(m -> m.name().equals(op.getCurrentMember())).findFirst();
      if (current.isEmpty()) {
        return VolumeSteps.recordMemberDone(op, PHASE_REPLACING, op.getCurrentMember()
            + " is no longer a wanted member", op.getCurrentMember());
      }
      MemberObservation m = current.get();
      return replaced(s, changes, op, m)
          ? VolumeSteps.recordMemberDone(op, PHASE_REPLACING, "the volume of " + m.name()
              + " is replaced and the member is in sync", m.name())
          : memberStep(s, changes, op, m);
    }
    List<MemberObservation> todo = toReplace(s, changes, op);
    if (todo.isEmpty()) {
      return VolumeSteps.record(op, PHASE_COMPLETED, "volumes replaced: "
          + String.join(", ", VolumeSteps.completed(op)));
    }
    return nextMember(s, op, todo);
  }

  private static RolloutAction snapshotFirst(ClusterSnapshot s, VolumeOperation op) {
    Optional<MemberObservation> leader = s.readyLeader();
    if (leader.isEmpty()) {
      return new Wait("a ready leader to take the full snapshot before volumes are replaced");
    }
    return new TakeFullSnapshot(leader.get().ordinal(), op.withPhase(PHASE_SNAPSHOTTED));
  }

  /** Members whose volume this operation still has to replace. */
  private static List<MemberObservation> toReplace(ClusterSnapshot s, VolumeChanges changes,
      VolumeOperation op) {
    if (isTask(op)) {
      String member = s.volumes().task().filter(t -> t.name().equals(op.getTask()))
          .flatMap(VolumeTask::member).orElse(null);
      return s.wanted().stream().filter(m -> m.name().equals(member))
          .filter(m -> !VolumeSteps.completed(op).contains(m.name())).toList();
    }
    boolean stillConfirmed = op.getGeneration() != null
        && op.getGeneration().equals(s.etcd().getMetadata().getGeneration())
        || ReplacementConfirmation.isConfirmed(s.etcd());
    if (!stillConfirmed) {
      return List.of();
    }
    return s.wanted().stream()
        .filter(m -> changes.change(m.ordinal()) == VolumeChange.REPLACE)
        .toList();
  }

  private RolloutAction nextMember(ClusterSnapshot s, VolumeOperation op,
      List<MemberObservation> todo) {
    boolean single = s.wanted().size() == 1;
    MemberObservation next = ClusterSnapshot.rollOrder(todo).get(0);
    if (!single) {
      // a replaced disk may not answer: a task only needs the others to vote
      Optional<String> unsafe = isTask(op) ? s.whyNotAllVote(next) : health.whyNotSafeToRoll(s);
      if (unsafe.isPresent()) {
        return new Wait(unsafe.get() + "; the next volume is replaced once the cluster is in sync");
      }
      if (next.isLeader()) {
        Optional<MemberObservation> target = s.leadershipTarget(next, m -> true);
        if (target.isPresent()) {
          return new MoveLeader(next.ordinal(), next.name(),
              target.get().agent().orElseThrow().memberId(), target.get().name());
        }
      }
    }
    VolumeOperation then = op.withPhase(PHASE_REPLACING);
    then.setCurrentMember(next.name());
    return new RecordVolumeOperation(then, "replacing the volume of " + next.name()
        + (single ? " (restores from the full snapshot"
            + (op.getSnapshotRevision() == null ? "" : " at revision " + op.getSnapshotRevision())
            + ")" : " (removed from etcd, recreated, rejoins as a learner)"));
  }

  /**
   * One step of replacing {@code m}'s volume; never touches another member. The member is
   * stopped first (its pod deleted: etcd shuts down gracefully and clients move to the
   * others, which a removal from the membership would cut off abruptly), then removed from
   * etcd, then its old claim goes, and it is created anew.
   */
  private static RolloutAction memberStep(ClusterSnapshot s, VolumeChanges changes,
      VolumeOperation op, MemberObservation m) {
    boolean single = s.wanted().size() == 1;
    boolean old = m.pvc().isPresent() && isOld(changes, op, m);
    if (old && m.podExists() && !m.podTerminating()) {
      return new DeleteMemberAndVolume(m.ordinal(), m.name(),
          m.pvc().get().getMetadata().getName(), RestartReason.VOLUME_REPLACED);
    }
    if (m.podTerminating()) {
      return new Wait(m.name() + " to terminate");
    }
    if (!single && !m.podExists()) {
      Optional<RolloutAction> removal = removeFromEtcd(s, m);
      if (removal.isPresent()) {
        return removal.get();
      }
    }
    if (old) {
      String pvcName = m.pvc().get().getMetadata().getName();
      return m.pvc().get().getMetadata().getDeletionTimestamp() == null
          ? new DeleteMemberAndVolume(m.ordinal(), m.name(), pvcName,
              RestartReason.VOLUME_REPLACED)
          : new Wait("the old volume " + pvcName + " of " + m.name() + " to be deleted");
    }
    if (m.pvc().isEmpty()) {
      return new CreateVolumes(List.of(m.ordinal()));
    }
    if (!m.podExists()) {
      return new CreatePods(List.of(m.ordinal()), single
          ? "restoring from the backup store on its new volume"
          : "rejoining as a learner on its new volume");
    }
    Optional<RolloutAction> promotion = promote(s, m);
    return promotion.orElseGet(() -> new Wait(m.name() + " to "
        + (single ? "restore and become ready" : "join, catch up and become ready")));
  }

  private static boolean isTask(VolumeOperation op) {
    return op.kind().filter(k -> k == Kind.REPLACE_MEMBER_VOLUME).isPresent();
  }

  /** The member's PVC predates this operation (and must be replaced). */
  private static boolean isOld(VolumeChanges changes, VolumeOperation op, MemberObservation m) {
    if (changes.change(m.ordinal()) == VolumeChange.REPLACE) {
      return true;
    }
    return isTask(op)
        && createdBefore(m.pvc().get().getMetadata().getCreationTimestamp(), op.getStartedAt());
  }

  static boolean createdBefore(String created, String startedAt) {
    if (created == null || startedAt == null) {
      return false;
    }
    Instant start = Instant.parse(startedAt).truncatedTo(ChronoUnit.SECONDS);
    return Instant.parse(created).isBefore(start);
  }

  /** Removes {@code m} from the etcd membership through another ready voting member. */
  private static Optional<RolloutAction> removeFromEtcd(ClusterSnapshot s, MemberObservation m) {
    Optional<MemberObservation> via = s.votingPeer(m);
    if (via.isEmpty()) {
      return Optional.of(new Wait("a ready voting member through which " + m.name()
          + " can be removed from etcd"));
    }
    return via.get().agent().orElseThrow().members().stream()
        .filter(x -> x.name().equals(m.name())).findFirst()
        .map(x -> new RemoveMember(m.ordinal(), m.name(), x.id(), via.get().ordinal()));
  }

  private static Optional<RolloutAction> promote(ClusterSnapshot s, MemberObservation m) {
    Optional<MemberObservation> via = s.votingPeer(m);
    return via.flatMap(v -> v.agent().orElseThrow().members().stream()
        .filter(x -> x.name().equals(m.name()) && x.learner()).findFirst()
        .map(x -> new PromoteLearner(m.ordinal(), m.name(), x.id(), v.ordinal())));
  }

  /** The member runs on a new volume, is ready and votes. */
  private static boolean replaced(ClusterSnapshot s, VolumeChanges changes, VolumeOperation op,
      MemberObservation m) {
    if (m.pvc().isEmpty() || isOld(changes, op, m) || !m.ready() || m.agent().isEmpty()) {
      return false;
    }
    if (s.wanted().size() == 1) {
      return true;
    }
    Optional<MemberObservation> via = s.votingPeer(m);
    return !m.agent().get().isLearner() && via.isPresent() && via.get().agent().get().members()
        .stream().anyMatch(x -> x.name().equals(m.name()) && !x.learner());
  }
}
