package cloud.gardener.druid.operator.volume;

import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_SNAPSHOTTED;
import static cloud.gardener.druid.api.v1alpha1.VolumeOperation.PHASE_VOLUMES_DELETED;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation.Kind;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.action.RolloutAction;
import java.util.Optional;

/**
 * {@code hibernation.deleteVolumes}: the volumes of a hibernated cluster go only after its
 * final full snapshot was recorded (HibernateDeleteVolumes, Snapshotted → VolumesDeleted);
 * waking up is a {@link RestoreFlow}.
 */
final class HibernationVolumes {

  private HibernationVolumes() {
  }

  /** Recorded once the final full snapshot of a hibernation that deletes volumes succeeded. */
  static VolumeOperation record(ClusterSnapshot s) {
    return VolumeSteps.newOperation(s, Kind.HIBERNATE_DELETE_VOLUMES, null, PHASE_SNAPSHOTTED);
  }

  /**
   * With every pod gone: deletes the volumes, but only after a final full snapshot of this
   * hibernation was recorded (a hibernation without one keeps its volumes).
   */
  static Optional<RolloutAction> deleteVolumes(ClusterSnapshot s) {
    return s.volumes().active()
        .filter(op -> op.kind().filter(k -> k == Kind.HIBERNATE_DELETE_VOLUMES).isPresent())
        .filter(op -> PHASE_SNAPSHOTTED.equals(op.getPhase()))
        .map(op -> VolumeSteps.deleteEveryVolume(s, op.withPhase(PHASE_VOLUMES_DELETED),
            "hibernated: every volume is deleted; waking up restores from the backup store"));
  }
}
