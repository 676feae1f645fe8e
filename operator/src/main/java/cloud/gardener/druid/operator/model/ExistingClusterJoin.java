package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.BootstrapExistingMember;
import cloud.gardener.druid.api.v1alpha1.BootstrapStatus;
import cloud.gardener.druid.api.v1alpha1.BootstrapWithExistingCluster;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import java.util.List;
import java.util.Optional;

/**
 * Where an Etcd stands with {@code spec.etcd.bootstrapWithExistingCluster}: joining (the field
 * is set and {@code status.bootstrapWithExistingCluster} not yet written), joined (written;
 * sticky), or neither.
 */
public final class ExistingClusterJoin {

  private ExistingClusterJoin() {
  }

  /** The Etcd's members join a running cluster and have not all joined yet. */
  public static boolean joining(Etcd etcd) {
    return spec(etcd).isPresent() && recorded(etcd).isEmpty();
  }

  /** The join succeeded: the source members as recorded then. */
  public static Optional<BootstrapStatus> recorded(Etcd etcd) {
    return Optional.ofNullable(etcd.getStatus()).map(s -> s.getBootstrapWithExistingCluster());
  }

  /** The source members the spec names; empty when the Etcd does not join. */
  public static List<BootstrapExistingMember> sourceMembers(Etcd etcd) {
    return spec(etcd).map(b -> b.getMembers() == null ? List.<BootstrapExistingMember>of()
        : b.getMembers()).orElse(List.of());
  }

  /** The names of the source members: as recorded at the join, else as the spec names them. */
  public static List<String> sourceNames(Etcd etcd) {
    return recorded(etcd).filter(r -> r.getMembers() != null)
        .map(r -> r.getMembers().stream().map(BootstrapStatus.Member::getName).toList())
        .orElseGet(() -> sourceMembers(etcd).stream().map(BootstrapExistingMember::getName)
            .toList());
  }

  private static Optional<BootstrapWithExistingCluster> spec(Etcd etcd) {
    return Optional.ofNullable(EtcdDefaults.etcd(etcd).getBootstrapWithExistingCluster());
  }
}
