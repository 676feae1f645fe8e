package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.operator.action.RolloutAction;
import cloud.gardener.druid.operator.action.RolloutAction.ExpandVolumes;
import java.util.List;
import java.util.Optional;

/**
 * Growing volumes in place (the class allows expansion): the claims are patched, nothing is
 * recorded; a pending file system resize is completed by an ordinary member update.
 */
final class VolumeGrowth {

  private VolumeGrowth() {
  }

  static Optional<RolloutAction> next(VolumeChanges changes) {
    List<Integer> growing = changes.needing(VolumeChange.GROW);
    return growing.isEmpty() ? Optional.empty() : Optional.of(new ExpandVolumes(growing));
  }
}
