package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/** The identity of member agents: a ServiceAccount and what it may do in its namespace. */
public final class RbacBuilder {

  private RbacBuilder() {
  }

  public static ServiceAccount serviceAccount(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    return new ServiceAccountBuilder()
        .withNewMetadata().withName(names.serviceAccount()).withNamespace(names.namespace())
          .withLabels(EtcdLabels.managed(etcd)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withAutomountServiceAccountToken(false)
        .build();
  }

  /**
   * Agents read and renew their Etcd's leases by name (the members' and the two snapshot
   * leases), nothing else: no list, no watch, no other object.
   */
  public static Role role(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    List<String> leases = new ArrayList<>();
    IntStream.range(0, EtcdDefaults.replicas(etcd)).forEach(i -> leases.add(names.memberLease(i)));
    leases.add(names.fullSnapshotLease());
    leases.add(names.deltaSnapshotLease());
    leases.add(BackupDrillJobBuilder.leaseName(etcd));
    return new RoleBuilder()
        .withNewMetadata().withName(names.role()).withNamespace(names.namespace())
          .withLabels(EtcdLabels.managed(etcd)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withRules(new PolicyRuleBuilder().withApiGroups("coordination.k8s.io")
            .withResources("leases").withResourceNames(leases).withVerbs("get", "update").build())
        .build();
  }

  public static RoleBinding roleBinding(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    return new RoleBindingBuilder()
        .withNewMetadata().withName(names.roleBinding()).withNamespace(names.namespace())
          .withLabels(EtcdLabels.managed(etcd)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role")
          .withName(names.role()).endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(names.serviceAccount())
          .withNamespace(names.namespace()).endSubject()
        .build();
  }
}
