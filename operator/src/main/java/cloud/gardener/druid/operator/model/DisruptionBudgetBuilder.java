package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;

/** The PodDisruptionBudget: voluntary evictions never break quorum (minAvailable n/2+1). */
public final class DisruptionBudgetBuilder {

  private DisruptionBudgetBuilder() {
  }

  public static PodDisruptionBudget build(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    return new PodDisruptionBudgetBuilder()
        .withNewMetadata().withName(names.podDisruptionBudget()).withNamespace(names.namespace())
          .withLabels(EtcdLabels.managed(etcd)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewSpec()
          .withMinAvailable(new IntOrString(minAvailable(EtcdDefaults.replicas(etcd))))
          .withNewSelector().withMatchLabels(EtcdLabels.memberSelector(etcd)).endSelector()
        .endSpec()
        .build();
  }

  /** Upstream: 0 for one member (it could never be evicted otherwise), else a quorum. */
  static int minAvailable(int replicas) {
    return replicas <= 1 ? 0 : replicas / 2 + 1;
  }
}
