package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;


/**
 * Member leases (renewed by each agent with holder {@code <memberID>:<clusterID>:<role>}) and
 * the full/delta snapshot leases (holder = the last snapshot's revision). The operator creates
 * them empty; only agents write their spec.
 */
public final class LeaseBuilder {

  private LeaseBuilder() {
  }

  public static Lease member(Etcd etcd, int ordinal) {
    return lease(etcd, EtcdNames.of(etcd).memberLease(ordinal));
  }

  public static Lease fullSnapshot(Etcd etcd) {
    return lease(etcd, EtcdNames.of(etcd).fullSnapshotLease());
  }

  public static Lease deltaSnapshot(Etcd etcd) {
    return lease(etcd, EtcdNames.of(etcd).deltaSnapshotLease());
  }

  /** Where the restore drill writes its report (addition, {@link BackupDrillJobBuilder}). */
  public static Lease backupVerification(Etcd etcd) {
    return lease(etcd, BackupDrillJobBuilder.leaseName(etcd));
  }

  private static Lease lease(Etcd etcd, String name) {
    return new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder()
        .withNewMetadata().withName(name).withNamespace(etcd.getMetadata().getNamespace())
          .withLabels(EtcdLabels.managed(etcd)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .build();
  }
}
