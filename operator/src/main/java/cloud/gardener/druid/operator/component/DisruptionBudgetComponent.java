package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.DisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** The PodDisruptionBudget that keeps evictions from breaking quorum. */
public final class DisruptionBudgetComponent extends AppliedComponent<PodDisruptionBudget> {

  public DisruptionBudgetComponent(KubernetesClient client, OwnedCaches caches) {
    super(client, caches, PodDisruptionBudget.class, "POD_DISRUPTION_BUDGET");
  }

  @Override
  List<PodDisruptionBudget> desired(Etcd etcd) {
    return List.of(DisruptionBudgetBuilder.build(etcd));
  }
}
