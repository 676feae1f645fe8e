package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.operator.observe.VolumeTask;

import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_COMPLETED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_REMOVING_MEMBERS;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_RESTORING;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_SNAPSHOTTED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_VOLUMES_DELETED;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation.Kind;
import cloud.gardener.druid.operator.model.AgentArgs;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import cloud.gardener.druid.operator.action.RestartReason;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.CreatePods;
import cloud.gardener.druid.operator.action.RolloutAction.CreateVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteMembers;
import cloud.gardener.druid.operator.action.RolloutAction.MoveLeader;
import cloud.gardener.druid.operator.action.RolloutAction.RecordVolumeOperation;
import cloud.gardener.druid.operator.action.RolloutAction.RestartMember;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import java.util.List;
import java.util.Optional;

/**
 * Restoring a cluster from the backup store: waking a hibernation whose volumes were deleted
 * ({@code HibernateDeleteVolumes}), and {@code RecoverFromQuorumLoss} (task), which first
 * deletes every pod and PVC (RemovingMembers). Member 0 alone restores from the store
 * (Restoring); the others join it as ordinary new members.
 */
final class RestoreFlow {

  /** Starts a {@code recoverFromQuorumLoss} task. */
  RolloutAction startTask(ClusterSnapshot s, VolumeTask task) {
    VolumeOperation op = VolumeSteps.newOperation(s, task.operation(), task.name(),
        PHASE_REMOVING_MEMBERS);
    return new RecordVolumeOperation(op, "recovering from quorum loss (task " + task.name()
        + "): every member is deleted and the cluster restored from the backup store");
  }

  /**
   * The next step; empty while the ordinary member creation and promotion proceed (members
   * joining the restored member).
   */
  Optional<RolloutAction> next(ClusterSnapshot s, VolumeOperation op) {
    if (PHASE_REMOVING_MEMBERS.equals(op.getPhase())) {
      return Optional.of(removeAll(s, op));
    }
    if (PHASE_SNAPSHOTTED.equals(op.getPhase())
        && op.kind().filter(k -> k == Kind.HIBERNATE_DELETE_VOLUMES).isPresent()) {
      return Optional.of(wokenBeforeVolumesWereDeleted(s, op));
    }
    if (PHASE_VOLUMES_DELETED.equals(op.getPhase())) {
      return Optional.of(VolumeSteps.record(op, PHASE_RESTORING, "restoring member "
          + s.members().get(0).name() + " from the backup store"));
    }
    if (!PHASE_RESTORING.equals(op.getPhase())) {
      return Optional.of(new Wait("volume operation " + op.getType() + " in phase "
          + op.getPhase()));
    }
    return restoring(s, op);
  }

  private static RolloutAction removeAll(ClusterSnapshot s, VolumeOperation op) {
    List<Integer> running = s.members().stream()
        .filter(m -> m.podExists() && !m.podTerminating()).map(MemberObservation::ordinal).toList();
    if (!running.isEmpty()) {
      return new DeleteMembers(running, "recovering from quorum loss");
    }
    if (s.members().stream().anyMatch(MemberObservation::podExists)) {
      return new Wait("member pods to terminate");
    }
    return VolumeSteps.deleteEveryVolume(s, op.withPhase(PHASE_VOLUMES_DELETED),
        "every member and volume is deleted; restoring from the backup store");
  }

  /**
   * Woken up before every volume was deleted: with all volumes there the hibernation simply
   * ends; with some gone, the rest go too, so that all members restore from one snapshot.
   */
  private static RolloutAction wokenBeforeVolumesWereDeleted(ClusterSnapshot s,
      VolumeOperation op) {
    if (s.members().stream().allMatch(m -> m.pvc().isPresent())) {
      return VolumeSteps.record(op, PHASE_COMPLETED, "woken up before the volumes were deleted;"
          + " they are kept");
    }
    return VolumeSteps.deleteEveryVolume(s, op.withPhase(PHASE_VOLUMES_DELETED),
        "every volume is deleted");
  }

  /** Member 0 alone restores from the store; the others join it as ordinary new members. */
  private static Optional<RolloutAction> restoring(ClusterSnapshot s, VolumeOperation op) {
    MemberObservation first = s.members().get(0);
    if (first.pvc().isEmpty()) {
      return Optional.of(new CreateVolumes(List.of(0)));
    }
    boolean othersVote = s.votingPeer(first).isPresent();
    if (othersVote && (!first.podExists() || first.podTerminating())) {
      // the restart of restartAsMember, its pod still going or gone: it continues
      return Optional.of(new RestartMember(first.ordinal(), first.name(),
          RestartReason.RESTORED_ALONE));
    }
    if (!first.podExists()) {
      return Optional.of(new CreatePods(List.of(0), "restoring from the backup store", true));
    }
    if (!first.ready()) {
      return Optional.of(new Wait(first.name() + " to restore from the backup store"));
    }
    boolean complete = s.whyNotAllVote(null).isEmpty()
        && s.votingMembers() == s.wanted().size();
    if (!complete) {
      return Optional.empty();
    }
    if (s.wanted().size() > 1 && startedAlone(first)) {
      return Optional.of(restartAsMember(s, first));
    }
    return Optional.of(VolumeSteps.record(op, PHASE_COMPLETED, "restored from the backup store"
        + " with " + s.wanted().size() + " members"));
  }

  /**
   * A member started alone keeps {@code --replicas=1} in its pod; should it ever start without
   * data again it would restore alone instead of joining. Once the others vote, it is
   * restarted (leadership moved off it first) to run with the cluster's size.
   */
  private static RolloutAction restartAsMember(ClusterSnapshot s, MemberObservation first) {
    if (first.isLeader()) {
      Optional<MemberObservation> target = s.leadershipTarget(first, m -> true);
      if (target.isPresent()) {
        return new MoveLeader(first.ordinal(), first.name(),
            target.get().agent().orElseThrow().memberId(), target.get().name());
      }
    }
    return new RestartMember(first.ordinal(), first.name(), RestartReason.RESTORED_ALONE);
  }

  private static boolean startedAlone(MemberObservation m) {
    String alone = AgentArgs.bootstrapReplicas(1);
    return m.pod().filter(p -> p.getSpec() != null).map(p -> p.getSpec().getContainers().stream()
        .anyMatch(c -> c.getArgs() != null && c.getArgs().contains(alone))).orElse(false);
  }
}
