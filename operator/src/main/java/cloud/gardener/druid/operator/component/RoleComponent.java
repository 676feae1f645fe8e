package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.RbacBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** The Role of the member agents. */
public final class RoleComponent extends AppliedComponent<Role> {

  public RoleComponent(KubernetesClient client, OwnedCaches caches) {
    super(client, caches, Role.class, "ROLE");
  }

  @Override
  List<Role> desired(Etcd etcd) {
    return List.of(RbacBuilder.role(etcd));
  }
}
