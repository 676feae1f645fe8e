package cloud.gardener.druid.operator.model;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The resources of the one member container, which runs what upstream runs in two: etcd
 * ({@code spec.etcd.resources}) and the backup sidecar ({@code spec.backup.resources}). The
 * requests add up, so that the scheduler reserves what upstream's pod reserves; a limit is the
 * sum where both give one, else the one given (the agent has to fit within it).
 */
public final class MemberResources {

  private MemberResources() {
  }

  public static ResourceRequirements of(ResourceRequirements etcd, ResourceRequirements backup) {
    if (backup == null) {
      return etcd;
    }
    if (etcd == null) {
      return backup;
    }
    return new ResourceRequirementsBuilder()
        .withRequests(sum(etcd.getRequests(), backup.getRequests()))
        .withLimits(sum(etcd.getLimits(), backup.getLimits()))
        .build();
  }

  private static Map<String, Quantity> sum(Map<String, Quantity> a, Map<String, Quantity> b) {
    Map<String, Quantity> total = new LinkedHashMap<>(a == null ? Map.of() : a);
    (b == null ? Map.<String, Quantity>of() : b).forEach((name, q) -> total.merge(name, q,
        Quantity::add));
    return total.isEmpty() ? null : total;
  }
}
