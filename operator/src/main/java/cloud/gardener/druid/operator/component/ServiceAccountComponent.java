package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.RbacBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** The ServiceAccount of the member agents. */
public final class ServiceAccountComponent extends AppliedComponent<ServiceAccount> {

  public ServiceAccountComponent(KubernetesClient client, OwnedCaches caches) {
    super(client, caches, ServiceAccount.class, "SERVICE_ACCOUNT");
  }

  @Override
  List<ServiceAccount> desired(Etcd etcd) {
    return List.of(RbacBuilder.serviceAccount(etcd));
  }
}
