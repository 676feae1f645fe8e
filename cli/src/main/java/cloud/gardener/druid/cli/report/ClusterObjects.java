package cloud.gardener.druid.cli.report;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.cli.shared.ManagedKinds;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The Kubernetes side of a support bundle: the Etcd, its tasks, every object the operator
 * manages for it (by the labels {@code list-resources} uses), and the events about any of them.
 */
final class ClusterObjects {

  private final KubernetesClient client;
  private final String namespace;
  private final Etcd etcd;
  private final SupportBundle bundle;
  private final Set<String> names = new HashSet<>();
  private final List<Pod> pods = new ArrayList<>();

  ClusterObjects(KubernetesClient client, Etcd etcd, SupportBundle bundle) {
    this.client = client;
    this.namespace = etcd.getMetadata().getNamespace();
    this.etcd = etcd;
    this.bundle = bundle;
    names.add(etcd.getMetadata().getName());
  }

  /** Writes the objects and events; the pods found, whose logs and agents come next. */
  List<Pod> write() throws IOException {
    bundle.add("etcd.yaml", Redaction.yaml(etcd));
    String name = etcd.getMetadata().getName();
    write("tasks/EtcdOpsTask.yaml", "EtcdOpsTasks", () -> client.resources(EtcdOpsTask.class)
        .inNamespace(namespace).list().getItems().stream()
        .filter(t -> t.getSpec() != null && name.equals(t.getSpec().getEtcdName())).toList());
    write("tasks/EtcdCopyBackupsTask.yaml", "EtcdCopyBackupsTasks", () -> client
        .resources(EtcdCopyBackupsTask.class).inNamespace(namespace).list().getItems());
    Map<String, String> labels = Map.of(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE,
        Labels.PART_OF, name);
    for (var kind : ManagedKinds.ALL.entrySet()) {
      List<? extends HasMetadata> found = write("resources/" + kind.getKey() + ".yaml",
          kind.getKey() + "s", () -> kind.getValue().list(client, namespace, labels));
      found.stream().filter(Pod.class::isInstance).map(Pod.class::cast).forEach(pods::add);
    }
    write("events.yaml", "events", () -> client.v1().events().inNamespace(namespace).list()
        .getItems().stream().filter(this::about)
        .sorted(Comparator.comparing(ClusterObjects::when)).toList());
    return List.copyOf(pods);
  }

  private List<? extends HasMetadata> write(String path, String what,
      Supplier<List<? extends HasMetadata>> list) throws IOException {
    List<? extends HasMetadata> items;
    try {
      items = list.get();
    } catch (KubernetesClientException e) {
      bundle.missing(path, "listing " + what + " failed: " + Reasons.of(e));
      return List.of();
    }
    items.forEach(o -> names.add(o.getMetadata().getName()));
    StringBuilder yaml = new StringBuilder();
    items.stream().sorted(Comparator.comparing(o -> o.getMetadata().getName()))
        .forEach(o -> yaml.append(Redaction.yaml(o)));
    bundle.add(path, items.isEmpty() ? "# none\n" : yaml.toString());
    return items;
  }

  private boolean about(Event e) {
    return e.getInvolvedObject() != null && names.contains(e.getInvolvedObject().getName());
  }

  private static String when(Event e) {
    String t = e.getLastTimestamp() != null ? e.getLastTimestamp() : e.getEventTime() != null
        ? e.getEventTime().getTime() : e.getMetadata().getCreationTimestamp();
    return t == null ? "" : t;
  }
}
