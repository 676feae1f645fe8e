package cloud.gardener.druid.operator.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.LastOperation;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.webhook.ComponentProtection.Change;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Upstream's rules of the component protection webhook, one case each. */
class ComponentProtectionTest {

  static final String OPERATOR = "system:serviceaccount:druid:etcd-druid";
  static final String GC = "system:serviceaccount:kube-system:generic-garbage-collector";
  static final String USER = "system:serviceaccount:ns:someone";
  final ComponentProtection protection = new ComponentProtection(OPERATOR, Set.of(GC));

  private static Change change(String operation, String kind, String user) {
    return new Change(operation, kind, "ns", "etcd-main-0", user, Map.of(), false);
  }

  @Test
  void othersMayNotChangeOrDeleteManagedObjects() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    for (String kind : new String[] {"ConfigMap", "Pod", "Service", "Secret", "Lease"}) {
      var decision = protection.decide(change("UPDATE", kind, USER), Optional.of(etcd));
      assertThat(decision.allowed()).as(kind).isFalse();
      assertThat(decision.message()).isEqualTo("changes from service account " + USER
          + " are disallowed at the moment. Please consider disabling component protection by"
          + " setting annotation `druid.gardener.cloud/disable-etcd-component-protection` on the"
          + " parent Etcd resource");
    }
    assertThat(protection.decide(change("DELETE", "Pod", USER), Optional.of(etcd)).allowed())
        .isFalse();
  }

  @Test
  void theOperatorCreatesAndObjectsOfNoEtcdPass() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    assertThat(protection.decide(change("UPDATE", "ConfigMap", OPERATOR), Optional.of(etcd))
        .allowed()).isTrue();
    assertThat(protection.decide(change("CREATE", "ConfigMap", USER), Optional.of(etcd))
        .allowed()).isTrue();
    assertThat(protection.decide(change("UPDATE", "ConfigMap", USER), Optional.empty())
        .allowed()).isTrue();
  }

  @Test
  void theAnnotationsLiftTheProtection() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    etcd.getMetadata().setAnnotations(new HashMap<>(Map.of(
        Annotations.DISABLE_COMPONENT_PROTECTION, "")));
    assertThat(protection.decide(change("DELETE", "Pod", USER), Optional.of(etcd)).allowed())
        .isTrue();
    Etcd noRuntime = Etcds.etcd("etcd-main", 3);
    noRuntime.getMetadata().setAnnotations(new HashMap<>(Map.of(
        Annotations.DISABLE_RUNTIME_COMPONENT_CREATION, "")));
    assertThat(protection.decide(change("UPDATE", "Service", USER), Optional.of(noRuntime))
        .allowed()).as("a runtime component").isTrue();
    assertThat(protection.decide(change("UPDATE", "ConfigMap", USER), Optional.of(noRuntime))
        .allowed()).as("not a runtime component").isFalse();
  }

  @Test
  void membersRenewTheirLeasesAndExemptAccountsActWhileNoReconcileRuns() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    assertThat(protection.decide(change("UPDATE", "Lease", "system:serviceaccount:ns:etcd-main"),
        Optional.of(etcd)).allowed()).isTrue();
    assertThat(protection.decide(change("UPDATE", "ConfigMap", GC), Optional.of(etcd)).allowed())
        .isTrue();
    LastOperation op = new LastOperation();
    op.setType("Reconcile");
    op.setState("Processing");
    etcd.setStatus(new EtcdStatus());
    etcd.getStatus().setLastOperation(op);
    assertThat(protection.decide(change("UPDATE", "ConfigMap", GC), Optional.of(etcd)).allowed())
        .isFalse();
  }

  @Test
  void whileTheEtcdIsDeletedOnlyTheOperatorAndExemptAccountsDelete() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    etcd.getMetadata().setDeletionTimestamp("2026-12-04T20:00:00Z");
    var denied = protection.decide(change("DELETE", "Service", USER), Optional.of(etcd));
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.message()).isEqualTo(
        "no external intervention allowed during ongoing deletion of Etcd etcd-main by etcd-druid");
    assertThat(protection.decide(change("DELETE", "Service", GC), Optional.of(etcd)).allowed())
        .isTrue();
    assertThat(protection.decide(new Change("DELETE", "Pod", "ns", "etcd-main-0",
        "system:node:node-1", Map.of(), true), Optional.of(etcd)).allowed())
        .as("the kubelet's final delete of a pod already being deleted").isTrue();
  }
}
