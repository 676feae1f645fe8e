package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.operator.model.MemberVolumeBuilder.VolumeSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Compares a member's PVC with the desired volume spec and says what kind of change it needs,
 * and in words what differs (for conditions and events, before anything is deleted).
 */
public final class VolumeDiff {

  /** The change of one volume and the human-readable differences. */
  public record Result(VolumeChange change, List<String> differences) {
  }

  private VolumeDiff() {
  }

  /**
   * @param desiredName the PVC name the desired template gives this member
   * @param expandable whether the desired StorageClass allows volume expansion
   */
  public static Result of(PersistentVolumeClaim pvc, VolumeSpec desired, String desiredName,
      String desiredRevision, boolean expandable) {
    String revision = pvc.getMetadata().getLabels() == null ? null
        : pvc.getMetadata().getLabels().get(Labels.VOLUME_REVISION);
    List<String> diffs = new ArrayList<>();
    String actualClass = pvc.getSpec().getStorageClassName();
    if (desired.storageClass() != null && !Objects.equals(actualClass, desired.storageClass())) {
      diffs.add("storage class " + actualClass + " -> " + desired.storageClass());
    }
    if (!pvc.getMetadata().getName().equals(desiredName)) {
      diffs.add("volume claim template: " + pvc.getMetadata().getName() + " -> " + desiredName);
    }
    BigDecimal actual = request(pvc);
    BigDecimal wanted = desired.capacity().getNumericalAmount();
    int size = wanted.compareTo(actual);
    if (size != 0) {
      diffs.add("size " + pvc.getSpec().getResources().getRequests().get("storage") + " -> "
          + desired.capacity() + (size < 0 ? " (shrink)" : ""));
    }
    if (diffs.isEmpty()) {
      return new Result(VolumeChange.NONE, List.of());
    }
    boolean onlyGrowth = diffs.size() == 1 && size > 0;
    if (desiredRevision.equals(revision) && !onlyGrowth) {
      return new Result(VolumeChange.NONE, List.of());
    }
    return new Result(onlyGrowth && expandable ? VolumeChange.GROW : VolumeChange.REPLACE,
        List.copyOf(diffs));
  }

  private static BigDecimal request(PersistentVolumeClaim pvc) {
    Quantity q = pvc.getSpec().getResources() == null ? null
        : pvc.getSpec().getResources().getRequests().get("storage");
    return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
  }
}
