package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.operator.model.DesiredMembers;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.observe.MemberObservation;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The change each wanted member's existing PVC needs to match the spec (a decision from the
 * observed claims and the desired volume, pure).
 *
 * @param changes by ordinal; members without a claim, or whose claim is being deleted, are absent
 */
public record VolumeChanges(Map<Integer, VolumeDiff.Result> changes) {

  public static VolumeChanges none() {
    return new VolumeChanges(Map.of());
  }

  public static VolumeChanges of(ClusterSnapshot s, DesiredMembers desired) {
    EtcdNames names = EtcdNames.of(s.etcd());
    Map<Integer, VolumeDiff.Result> changes = new TreeMap<>();
    for (MemberObservation m : s.wanted()) {
      m.pvc().filter(pvc -> pvc.getMetadata().getDeletionTimestamp() == null)
          .ifPresent(pvc -> changes.put(m.ordinal(), VolumeDiff.of(pvc, desired.volume(),
              names.pvc(m.ordinal()), desired.volumeRevision(), s.volumes().classExpandable())));
    }
    return new VolumeChanges(Map.copyOf(changes));
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
  public String describe(VolumeChange change, IntFunction<String> names) {
    return String.join("; ", needing(change).stream()
        .map(i -> names.apply(i) + ": " + String.join(", ", changes.get(i).differences()))
        .toList());
  }
}
