package cloud.gardener.druid.operator.webhook;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.EtcdNames;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Upstream's component protection (etcd-druid {@code internal/webhook/etcdcomponentprotection}):
 * whether a change to an object the operator manages for an Etcd is admitted. Pure: the
 * request and the Etcd it belongs to in, the decision out.
 *
 * @param operator the operator's own user name (its service account)
 * @param exempt user names that may change managed objects while no reconcile is in progress
 */
public record ComponentProtection(String operator, Set<String> exempt) {

  /** A change to a managed object, as the admission request names it. */
  public record Change(String operation, String kind, String namespace, String name,
      String username, Map<String, String> labels, boolean beingDeleted) {
  }

  /** Whether the change is admitted, and why. */
  public record Decision(boolean allowed, String message) {
    static Decision allow(String message) {
      return new Decision(true, message);
    }

    static Decision deny(String message) {
      return new Decision(false, message);
    }
  }

  /** Upstream's runtime components: not protected while their creation is disabled. */
  static final Set<String> RUNTIME_KINDS = Set.of("ServiceAccount", "Role", "RoleBinding",
      "Lease", "PodDisruptionBudget", "Service");

  /**
   * Whether deciding needs the Etcd the object belongs to: not for the operator's own changes
   * (always allowed) nor for the deletion of an object already being deleted.
   */
  public boolean needsEtcd(Change change) {
    return !operator.equals(change.username())
        && !("DELETE".equals(change.operation()) && change.beingDeleted());
  }

  /**
   * @param etcd the Etcd named by the object's {@code app.kubernetes.io/part-of} label, if
   *     it exists (read only when {@link #needsEtcd})
   */
  public Decision decide(Change change, Optional<Etcd> etcd) {
    String key = change.namespace() + "/" + change.name();
    if (!"UPDATE".equals(change.operation()) && !"DELETE".equals(change.operation())) {
      return Decision.allow("operation " + change.operation() + " is allowed");
    }
    if (!needsEtcd(change)) {
      return operator.equals(change.username())
          ? Decision.allow("changes of managed resources by etcd-druid are allowed")
          // the deletion was admitted; what follows (the kubelet's final delete of a pod) ends it
          : Decision.allow(change.kind() + " " + key + " is already being deleted");
    }
    if (etcd.isEmpty()) {
      return Decision.allow(change.kind() + " " + key + " is not part of any Etcd, skipping"
          + " validations");
    }
    Etcd parent = etcd.get();
    String name = parent.getMetadata().getName();
    if (annotated(parent, Annotations.DISABLE_COMPONENT_PROTECTION)) {
      return Decision.allow("changes allowed, since Etcd " + name + " has annotation "
          + Annotations.DISABLE_COMPONENT_PROTECTION);
    }
    if (RUNTIME_KINDS.contains(change.kind()) && !EtcdDefaults.runtimeComponentsEnabled(parent)) {
      return Decision.allow("Etcd " + name + " has runtime component creation disabled,"
          + " skipping validations for " + change.kind() + " " + key);
    }
    if ("DELETE".equals(change.operation())
        && parent.getMetadata().getDeletionTimestamp() != null) {
      return exempt.contains(change.username())
          ? Decision.allow("deletion of resource by exempt service account "
              + change.username() + " is allowed during deletion of Etcd " + name)
          : Decision.deny("no external intervention allowed during ongoing deletion of Etcd "
              + name + " by etcd-druid");
    }
    if ("Lease".equals(change.kind()) && memberServiceAccount(parent).equals(change.username())) {
      return Decision.allow("lease resource can be freely updated by etcd members");
    }
    if (exempt.contains(change.username())) {
      if (!reconciling(parent)) {
        return Decision.allow("operations on resources by exempt service account "
            + change.username() + " are allowed");
      }
      if (change.beingDeleted()) {
        return Decision.allow("deletion of resource by exempt service account "
            + change.username() + " is allowed during ongoing reconciliation of Etcd " + name
            + ", since deletion timestamp is set on the resource");
      }
    }
    return Decision.deny("changes from service account " + change.username() + " are"
        + " disallowed at the moment. Please consider disabling component protection by setting"
        + " annotation `" + Annotations.DISABLE_COMPONENT_PROTECTION + "` on the parent Etcd"
        + " resource");
  }

  private static boolean annotated(Etcd etcd, String annotation) {
    var annotations = etcd.getMetadata().getAnnotations();
    return annotations != null && annotations.containsKey(annotation);
  }

  private static String memberServiceAccount(Etcd etcd) {
    return "system:serviceaccount:" + etcd.getMetadata().getNamespace() + ":"
        + EtcdNames.of(etcd).serviceAccount();
  }

  /** Upstream's {@code IsReconciliationInProgress}: the last reconcile has not succeeded. */
  private static boolean reconciling(Etcd etcd) {
    var op = etcd.getStatus() == null ? null : etcd.getStatus().getLastOperation();
    return op != null && "Reconcile".equals(op.getType())
        && Set.of("Processing", "Error", "Requeue").contains(op.getState());
  }
}
