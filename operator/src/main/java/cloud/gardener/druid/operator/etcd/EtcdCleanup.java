package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.component.Component;
import cloud.gardener.druid.operator.model.EtcdLabels;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Removes everything an Etcd owns when it is deleted: member pods first (graceful), then their
 * volumes and every component. Done once nothing is left.
 */
public final class EtcdCleanup {

  private final KubernetesClient client;
  private final List<Component> components;
  private final EventRecorder events;

  public EtcdCleanup(KubernetesClient client, List<Component> components, EventRecorder events) {
    this.client = client;
    this.components = List.copyOf(components);
    this.events = events;
  }

  /** Deletes what is left; true when nothing is left. */
  public boolean run(Etcd etcd) {
    String ns = etcd.getMetadata().getNamespace();
    var pods = client.pods().inNamespace(ns).withLabels(EtcdLabels.memberSelector(etcd));
    if (!pods.list().getItems().isEmpty()) {
      events.normal(etcd, "Deleting", "deleting member pods");
      pods.delete();
      return false;
    }
    var pvcs = client.persistentVolumeClaims().inNamespace(ns)
        .withLabels(EtcdLabels.volumeSelector(etcd));
    pvcs.delete();
    for (int i = components.size() - 1; i >= 0; i--) {
      components.get(i).delete(etcd);
    }
    return pvcs.list().getItems().isEmpty();
  }
}
