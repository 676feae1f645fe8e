package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** The client Service and the headless peer Service. */
public final class ServicesComponent extends AppliedComponent<Service> {

  public ServicesComponent(KubernetesClient client, OwnedCaches caches) {
    super(client, caches, Service.class, "SERVICES");
  }

  @Override
  List<Service> desired(Etcd etcd) {
    return List.of(ServiceBuilder.client(etcd), ServiceBuilder.peer(etcd));
  }
}
