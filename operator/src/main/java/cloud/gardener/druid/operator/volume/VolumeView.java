package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an observation knows about an Etcd's volumes: the change each member's PVC needs, the
 * volume operation recorded in the Etcd's status (read fresh, never from a cache) and the
 * volume task in progress.
 *
 * @param changes the change of each wanted member's existing PVC, by ordinal
 * @param classExpandable whether the desired StorageClass allows volume expansion
 * @param recorded the operation in status.volumeOperation, finished or not
 * @param task the EtcdOpsTask on volumes in progress for this Etcd
 */
public record VolumeView(Map<Integer, VolumeDiff.Result> changes, boolean classExpandable,
    Optional<VolumeOperation> recorded, Optional<VolumeTask> task) {

  public static VolumeView none() {
    return new VolumeView(Map.of(), false, Optional.empty(), Optional.empty());
  }

  /** The recorded operation unless it is finished. */
  public Optional<VolumeOperation> active() {
    return recorded.filter(op -> !op.isFinished());
  }

  public List<Integer> needing(VolumeChange change) {
    return changes.entrySet().stream().filter(e -> e.getValue().change() == change)
        .map(Map.Entry::getKey).sorted().toList();
  }

  public VolumeChange change(int ordinal) {
    VolumeDiff.Result r = changes.get(ordinal);
    return r == null ? VolumeChange.NONE : r.change();
  }

  /** Human-readable differences of the members that need {@code change}. */
  public String describe(VolumeChange change, java.util.function.IntFunction<String> names) {
    return String.join("; ", needing(change).stream()
        .map(i -> names.apply(i) + ": " + String.join(", ", changes.get(i).differences()))
        .toList());
  }
}
