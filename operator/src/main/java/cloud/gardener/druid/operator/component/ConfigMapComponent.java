package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** The ConfigMap with the etcd configuration. */
public final class ConfigMapComponent extends AppliedComponent<ConfigMap> {

  public ConfigMapComponent(KubernetesClient client, OwnedCaches caches) {
    super(client, caches, ConfigMap.class, "CONFIGMAP");
  }

  @Override
  public boolean runtime() {
    return false;
  }

  @Override
  List<ConfigMap> desired(Etcd etcd) {
    return List.of(EtcdConfigMapBuilder.build(etcd));
  }
}
