package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.rbac.Role;
import org.junit.jupiter.api.Test;

class RbacBuilderTest {

  @Test
  void membersMayReadAndRenewTheirEtcdsLeasesByNameAndNothingElse() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    Role role = RbacBuilder.role(etcd);
    assertThat(role.getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getApiGroups()).containsExactly("coordination.k8s.io");
      assertThat(rule.getResources()).containsExactly("leases");
      assertThat(rule.getVerbs()).containsExactly("get", "update");
      assertThat(rule.getResourceNames()).containsExactly("etcd-main-0", "etcd-main-1",
          "etcd-main-2", "etcd-main-full-snap", "etcd-main-delta-snap",
          "etcd-main-backup-verification");
    });
    assertThat(RbacBuilder.serviceAccount(etcd).getAutomountServiceAccountToken()).isFalse();

    etcd.getSpec().setReplicas(5);
    assertThat(RbacBuilder.role(etcd).getRules().get(0).getResourceNames())
        .as("a scale-out names the new members' leases").contains("etcd-main-4");
  }
}
