package cloud.gardener.druid.testenv.storage;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimCondition;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Volume expansion with the observable steps of a CSI driver that needs an offline file
 * system resize:
 * <ol>
 *   <li>controller side ({@link #expandController}, the external-resizer's role): when a bound
 *       PVC requests more than its PV holds, the PV's capacity becomes the request and the PVC
 *       gets condition {@code FileSystemResizePending}, {@code allocatedResources} and
 *       {@code allocatedResourceStatuses[storage]=NodeResizePending};</li>
 *   <li>node side ({@link #completeOnNode}, the kubelet's role): the next time a pod using the
 *       PVC starts, the "file system" (a directory: nothing to do) is resized and the PVC's
 *       {@code status.capacity} becomes the PV's, the condition and statuses are cleared.</li>
 * </ol>
 */
public final class VolumeExpansion {

  static final String FS_RESIZE_PENDING = "FileSystemResizePending";

  private VolumeExpansion() {
  }

  /** Step 1, for a bound claim of an expandable class; no-op unless the request grew. */
  public static void expandController(KubernetesClient client, PersistentVolumeClaim pvc,
      PersistentVolume pv) {
    Quantity requested = pvc.getSpec().getResources().getRequests().get("storage");
    Quantity capacity = pv.getSpec().getCapacity().get("storage");
    if (requested == null || capacity == null
        || requested.getNumericalAmount().compareTo(capacity.getNumericalAmount()) <= 0) {
      return;
    }
    client.persistentVolumes().withName(pv.getMetadata().getName())
        .edit(p -> {
          p.getSpec().getCapacity().put("storage", requested);
          return p;
        });
    client.persistentVolumeClaims().inNamespace(pvc.getMetadata().getNamespace())
        .withName(pvc.getMetadata().getName())
        .editStatus(p -> {
          p.getStatus().setConditions(withCondition(p.getStatus().getConditions(), pending()));
          p.getStatus().setAllocatedResources(Map.of("storage", requested));
          p.getStatus().setAllocatedResourceStatuses(Map.of("storage", "NodeResizePending"));
          return p;
        });
  }

  /** Step 2, when a pod using the claim starts; no-op unless a resize is pending. */
  public static void completeOnNode(KubernetesClient client, PersistentVolumeClaim pvc,
      PersistentVolume pv) {
    if (!hasPendingResize(pvc)) {
      return;
    }
    Quantity capacity = pv.getSpec().getCapacity().get("storage");
    client.persistentVolumeClaims().inNamespace(pvc.getMetadata().getNamespace())
        .withName(pvc.getMetadata().getName())
        .editStatus(p -> {
          p.getStatus().setCapacity(Map.of("storage", capacity));
          p.getStatus().setConditions(withoutCondition(p.getStatus().getConditions()));
          p.getStatus().setAllocatedResourceStatuses(null);
          return p;
        });
  }

  public static boolean hasPendingResize(PersistentVolumeClaim pvc) {
    return pvc.getStatus() != null && pvc.getStatus().getConditions() != null
        && pvc.getStatus().getConditions().stream()
            .anyMatch(c -> FS_RESIZE_PENDING.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static PersistentVolumeClaimCondition pending() {
    return new PersistentVolumeClaimConditionBuilder()
        .withType(FS_RESIZE_PENDING).withStatus("True")
        .withLastTransitionTime(Instant.now().toString())
        .withMessage("Waiting for user to (re-)start a pod to finish file system resize of"
            + " volume on node.")
        .build();
  }

  private static List<PersistentVolumeClaimCondition> withCondition(
      List<PersistentVolumeClaimCondition> conditions, PersistentVolumeClaimCondition added) {
    List<PersistentVolumeClaimCondition> result = new ArrayList<>(withoutCondition(conditions));
    result.add(added);
    return result;
  }

  private static List<PersistentVolumeClaimCondition> withoutCondition(
      List<PersistentVolumeClaimCondition> conditions) {
    return Optional.ofNullable(conditions).orElse(List.of()).stream()
        .filter(c -> !FS_RESIZE_PENDING.equals(c.getType()))
        .toList();
  }
}
