package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;

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

  /** Agents renew their leases and read their pods; nothing else. */
  public static Role role(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    return new RoleBuilder()
        .withNewMetadata().withName(names.role()).withNamespace(names.namespace())
          .withLabels(EtcdLabels.managed(etcd)).withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withRules(
            new PolicyRuleBuilder().withApiGroups("coordination.k8s.io").withResources("leases")
                .withVerbs("get", "list", "watch", "patch", "update").build(),
            new PolicyRuleBuilder().withApiGroups("").withResources("pods")
                .withVerbs("get", "list", "watch").build(),
            new PolicyRuleBuilder().withApiGroups("").withResources("events")
                .withVerbs("create", "patch").build())
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
