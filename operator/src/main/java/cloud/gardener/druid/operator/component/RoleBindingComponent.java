package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.RbacBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** Binds the Role to the ServiceAccount. */
public final class RoleBindingComponent extends AppliedComponent<RoleBinding> {

  public RoleBindingComponent(KubernetesClient client, OwnedCaches caches) {
    super(client, caches, RoleBinding.class, "ROLE_BINDING");
  }

  @Override
  List<RoleBinding> desired(Etcd etcd) {
    return List.of(RbacBuilder.roleBinding(etcd));
  }
}
