package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.operator.observe.VolumeTask;

import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_COMPLETED;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.ClusterHealth;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.RecordVolumeOperation;
import java.util.Optional;

/**
 * Chooses the volume flow (docs/volumes.md) a step belongs to: {@link ReplacementFlow} (storage change,
 * replaceMemberVolume), {@link RestoreFlow} (wake-up with deleted volumes,
 * recoverFromQuorumLoss), {@link HibernationVolumes} and {@link VolumeGrowth}. Every
 * disruptive step is preceded by a record of it in status.volumeOperation
 * ({@link RecordVolumeOperation}), and every step is derived again from the record plus a fresh
 * observation, so an operator restart at any point resumes the flow.
 *
 * <p>Pure: decisions depend on the snapshot and the volume changes only.
 */
public final class VolumeFlow {

  private final ReplacementFlow replacement;
  private final RestoreFlow restore = new RestoreFlow();

  public VolumeFlow(ClusterHealth health) {
    this.replacement = new ReplacementFlow(health);
  }

  /**
   * The next step of the operation in progress, if one is. Empty while the operation lets
   * the ordinary member creation and promotion proceed (members joining a restored member).
   */
  public Optional<RolloutAction> continueActive(ClusterSnapshot s, VolumeChanges changes) {
    Optional<VolumeOperation> active = s.volumes().active();
    if (active.isEmpty()) {
      return Optional.empty();
    }
    VolumeOperation op = active.get();
    if (op.kind().isEmpty()) {
      // a type this operator does not record (written by hand or another version): end it
      return Optional.of(new RecordVolumeOperation(op.withPhase(PHASE_COMPLETED),
          "unknown volume operation " + op.getType() + " ended"));
    }
    return switch (op.kind().get()) {
      case REPLACE, REPLACE_MEMBER_VOLUME -> Optional.of(replacement.next(s, changes, op));
      case HIBERNATE_DELETE_VOLUMES -> s.replicas() == 0 ? Optional.empty() : restore.next(s, op);
      case RECOVER_FROM_QUORUM_LOSS -> restore.next(s, op);
    };
  }

  /**
   * Starts the volume task in progress (ahead of any other member work: a recovery task is
   * meant for a cluster that cannot heal by itself). Empty when there is none to start.
   */
  public Optional<RolloutAction> startTask(ClusterSnapshot s) {
    if (s.volumes().active().isPresent()) {
      return Optional.empty();
    }
    return s.volumes().task().filter(t -> !finishedFor(s, t)).map(t -> switch (t.operation()) {
      case REPLACE_MEMBER_VOLUME -> replacement.startTask(s, t);
      case RECOVER_FROM_QUORUM_LOSS -> restore.startTask(s, t);
      case REPLACE, HIBERNATE_DELETE_VOLUMES -> throw new IllegalStateException(
          "no task is carried out by " + t.operation());
    });
  }

  /**
   * Starts a replacement of changed volumes once it is confirmed for the current generation;
   * empty when there is nothing to replace, it awaits confirmation, or a single member has no
   * store to restore from.
   */
  public Optional<RolloutAction> startReplacement(ClusterSnapshot s, VolumeChanges changes) {
    return s.volumes().active().isPresent() ? Optional.empty() : replacement.start(s, changes);
  }

  /** Grows PVCs in place; restarts for a pending file system resize are ordinary updates. */
  public Optional<RolloutAction> grow(VolumeChanges changes) {
    return VolumeGrowth.next(changes);
  }

  /** Recorded once the final full snapshot of a hibernation that deletes volumes succeeded. */
  public VolumeOperation hibernationRecord(ClusterSnapshot s) {
    return HibernationVolumes.record(s);
  }

  /** With every pod gone, deletes the volumes of a hibernation whose final snapshot is recorded. */
  public Optional<RolloutAction> deleteVolumesAfterHibernation(ClusterSnapshot s) {
    return HibernationVolumes.deleteVolumes(s);
  }

  /** A task whose operation is already recorded as finished is not started again. */
  private static boolean finishedFor(ClusterSnapshot s, VolumeTask task) {
    return s.volumes().recorded().filter(VolumeOperation::isFinished)
        .filter(op -> task.name().equals(op.getTask())).isPresent();
  }
}
