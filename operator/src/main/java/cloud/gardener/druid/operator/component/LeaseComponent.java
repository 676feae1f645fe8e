package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The member leases (one per wanted member) and the full/delta snapshot leases (with a
 * store). Only metadata is applied: the agents own the lease specs.
 */
public final class LeaseComponent extends AppliedComponent<Lease> {

  public LeaseComponent(KubernetesClient client, OwnedCaches caches) {
    super(client, caches, Lease.class, "LEASES");
  }

  /** The agents renew their leases every few seconds: only our hash is compared. */
  @Override
  boolean repairsDrift() {
    return false;
  }

  @Override
  List<Lease> desired(Etcd etcd) {
    List<Lease> leases = new ArrayList<>();
    IntStream.range(0, EtcdDefaults.replicas(etcd)).forEach(i -> leases.add(LeaseBuilder.member(etcd, i)));
    if (EtcdDefaults.hasStore(etcd)) {
      leases.add(LeaseBuilder.fullSnapshot(etcd));
      leases.add(LeaseBuilder.deltaSnapshot(etcd));
      leases.add(LeaseBuilder.backupVerification(etcd));
    }
    return leases;
  }
}
