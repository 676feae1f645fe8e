package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdLabels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A component whose desired objects come from a pure builder and are written with server-side
 * apply under our field manager; objects of the kind carrying the Etcd's labels that are no
 * longer desired are deleted.
 */
abstract class AppliedComponent<T extends HasMetadata> implements Component {

  static final String FIELD_MANAGER = "etcd-druid";

  protected final KubernetesClient client;
  private final Class<T> type;
  private final String name;

  AppliedComponent(KubernetesClient client, Class<T> type, String name) {
    this.client = client;
    this.type = type;
    this.name = name;
  }

  /** The objects the Etcd's spec asks for. */
  abstract List<T> desired(Etcd etcd);

  @Override
  public String name() {
    return name;
  }

  @Override
  public void sync(Etcd etcd) {
    List<T> desired = desired(etcd);
    for (T object : desired) {
      client.resource(object).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    }
    Set<String> wanted = desired.stream().map(o -> o.getMetadata().getName())
        .collect(Collectors.toSet());
    listExisting(etcd).stream().filter(o -> !wanted.contains(o.getMetadata().getName()))
        .forEach(o -> client.resource(o).delete());
  }

  @Override
  public void delete(Etcd etcd) {
    listExisting(etcd).forEach(o -> client.resource(o).delete());
  }

  @Override
  public List<T> listExisting(Etcd etcd) {
    return client.resources(type).inNamespace(etcd.getMetadata().getNamespace())
        .withLabels(EtcdLabels.managed(etcd)).list().getItems();
  }
}
