package cloud.gardener.druid.cli.shared;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kinds of object the operator manages for an Etcd, in upstream's order of its
 * components, each with how to list them ({@code list-resources}, {@code report}).
 */
public final class ManagedKinds {

  /** Lists the objects of one kind in a namespace with the given labels. */
  public interface Lister {
    List<? extends HasMetadata> list(KubernetesClient c, String ns, Map<String, String> labels);
  }

  /** Every kind by its name. */
  public static final Map<String, Lister> ALL = Collections.unmodifiableMap(kinds());

  private ManagedKinds() {
  }

  private static Map<String, Lister> kinds() {
    Map<String, Lister> kinds = new LinkedHashMap<>();
    kinds.put("ServiceAccount", (c, ns, l) -> c.serviceAccounts().inNamespace(ns).withLabels(l)
        .list().getItems());
    kinds.put("Role", (c, ns, l) -> c.rbac().roles().inNamespace(ns).withLabels(l).list()
        .getItems());
    kinds.put("RoleBinding", (c, ns, l) -> c.rbac().roleBindings().inNamespace(ns)
        .withLabels(l).list().getItems());
    kinds.put("Lease", (c, ns, l) -> c.leases().inNamespace(ns).withLabels(l).list()
        .getItems());
    kinds.put("PodDisruptionBudget", (c, ns, l) -> c.policy().v1().podDisruptionBudget()
        .inNamespace(ns).withLabels(l).list().getItems());
    kinds.put("Service", (c, ns, l) -> c.services().inNamespace(ns).withLabels(l).list()
        .getItems());
    kinds.put("ConfigMap", (c, ns, l) -> c.configMaps().inNamespace(ns).withLabels(l).list()
        .getItems());
    kinds.put("Secret", (c, ns, l) -> c.secrets().inNamespace(ns).withLabels(l).list()
        .getItems());
    kinds.put("Pod", (c, ns, l) -> c.pods().inNamespace(ns).withLabels(l).list().getItems());
    kinds.put("PersistentVolumeClaim", (c, ns, l) -> c.persistentVolumeClaims().inNamespace(ns)
        .withLabels(l).list().getItems());
    kinds.put("Job", (c, ns, l) -> c.batch().v1().jobs().inNamespace(ns).withLabels(l).list()
        .getItems());
    return kinds;
  }
}
