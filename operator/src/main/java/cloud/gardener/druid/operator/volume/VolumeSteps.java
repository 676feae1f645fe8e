package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.DeleteVolumes;
import cloud.gardener.druid.operator.action.RolloutAction.RecordVolumeOperation;
import cloud.gardener.druid.operator.action.RolloutAction.Wait;
import java.util.ArrayList;
import java.util.List;

/** The steps every volume flow shares: a new record, a phase change, deleting every volume. */
final class VolumeSteps {

  private VolumeSteps() {
  }

  static VolumeOperation newOperation(ClusterSnapshot s, VolumeOperation.Kind kind, String task,
      String phase) {
    VolumeOperation op = new VolumeOperation();
    op.setType(kind.type());
    op.setTask(task);
    op.setGeneration(s.etcd().getMetadata().getGeneration());
    op.setStartedAt(s.observedAt().toString());
    op.setCompletedMembers(List.of());
    op.setPhase(phase);
    return op;
  }

  static RolloutAction record(VolumeOperation op, String phase, String reason) {
    return new RecordVolumeOperation(op.withPhase(phase), reason);
  }

  /** Records {@code phase}; {@code finishedMember} moves from current to completed. */
  static RolloutAction recordMemberDone(VolumeOperation op, String phase, String reason,
      String finishedMember) {
    VolumeOperation then = op.withPhase(phase);
    List<String> done = new ArrayList<>(completed(op));
    if (!done.contains(finishedMember)) {
      done.add(finishedMember);
    }
    then.setCompletedMembers(List.copyOf(done));
    then.setCurrentMember(null);
    return new RecordVolumeOperation(then, reason);
  }

  static List<String> completed(VolumeOperation op) {
    return op.getCompletedMembers() == null ? List.of() : op.getCompletedMembers();
  }

  /**
   * Deletes every member volume not yet being deleted (then {@code then} is recorded), waits
   * while any is still going, and once none is left records {@code then} with {@code whenGone}.
   */
  static RolloutAction deleteEveryVolume(ClusterSnapshot s, VolumeOperation then,
      String whenGone) {
    List<String> pvcs = s.members().stream().flatMap(m -> m.pvc().stream())
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .map(p -> p.getMetadata().getName()).toList();
    if (!pvcs.isEmpty()) {
      return new DeleteVolumes(pvcs, then);
    }
    return s.members().stream().anyMatch(m -> m.pvc().isPresent())
        ? new Wait("member volumes to be deleted")
        : new RecordVolumeOperation(then, whenGone);
  }
}
