package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import cloud.gardener.druid.api.types.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

/**
 * Upstream's annotation {@code druid.gardener.cloud/disable-etcd-runtime-component-creation}:
 * while an Etcd carries it, its members go (after the final snapshot, as in hibernation), and
 * once none is left so do its runtime components (service account, role, role binding,
 * leases, disruption budget, services); the config map and the volumes stay. Removing it
 * brings everything back and the members start on their data.
 */
@WithOperator
class RuntimeComponentsIT {

  static final Duration CHANGE = Duration.ofMinutes(3);

  @Test
  void theAnnotationRemovesMembersAndRuntimeComponentsAndItsRemovalBringsThemBack(
      KubernetesClient client, TestNamespace ns) throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("runtime");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/runtime");
    etcd.getSpec().getEtcd().setHeartbeatDuration(GoDuration.parse("2s"));
    client.resource(etcd).create();
    awaitRolloutComplete(client, "runtime");
    assertThat(renewalPeriod(client, EtcdNames.of(etcd).memberLease(0)))
        .as("spec.etcd.heartbeatDuration: 2s renews the member lease every 2s (default: 10s)")
        .isBetween(Duration.ofMillis(1_500), Duration.ofMillis(4_000));
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      EtcdClients.put(etcdClient.getKVClient(), "/kept", "yes");
    }
    EtcdNames names = EtcdNames.of(etcd);
    assertThat(runtimeComponents(client, ns, names)).as("before").isEqualTo(9);

    EtcdEdits.edit(client, "runtime", e -> {
      if (e.getMetadata().getAnnotations() == null) {
        e.getMetadata().setAnnotations(new HashMap<>());
      }
      e.getMetadata().getAnnotations().put(Annotations.DISABLE_RUNTIME_COMPONENT_CREATION, "");
    });
    await().atMost(CHANGE).untilAsserted(() -> {
      assertThat(client.pods().withLabels(EtcdLabels.memberSelector(etcd)).list().getItems())
          .isEmpty();
      assertThat(runtimeComponents(client, ns, names)).as("runtime components").isZero();
    });
    assertThat(client.configMaps().withName(names.configMap()).get()).as("config map").isNotNull();
    assertThat(client.persistentVolumeClaims().withName(names.pvc(0)).get()).as("volume")
        .isNotNull();
    Etcd disabled = client.resources(Etcd.class).withName("runtime").get();
    assertThat(disabled.getStatus().getConditions()).filteredOn(c -> "Ready".equals(c.getType()))
        .singleElement().satisfies(c -> assertThat(c.getMessage())
            .contains(Annotations.DISABLE_RUNTIME_COMPONENT_CREATION));

    EtcdEdits.edit(client, "runtime", e -> e.getMetadata().getAnnotations()
        .remove(Annotations.DISABLE_RUNTIME_COMPONENT_CREATION));
    // an annotation is not spec: the generation stays, and the status of the disabled Etcd
    // satisfies the predicate until the operator has seen the change; the member is back once
    // the predicate holds with it ready
    await().atMost(ItSupport.ROLLOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
        .until(() -> etcd(client, "runtime"), e -> RolloutCompletion.isComplete(e)
            && e.getStatus().getReadyReplicas() == 1);
    assertThat(runtimeComponents(client, ns, names)).as("after").isEqualTo(9);
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      assertThat(EtcdClients.get(etcdClient.getKVClient(), "/kept")).isEqualTo("yes");
    }
  }

  /** The time between two consecutive renewals of {@code lease} as the API server stored them. */
  private static Duration renewalPeriod(KubernetesClient client, String lease) {
    List<Instant> renewals = new ArrayList<>();
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
      var found = client.leases().withName(lease).get();
      if (found != null && found.getSpec().getRenewTime() != null) {
        Instant renewed = found.getSpec().getRenewTime().toInstant();
        if (renewals.isEmpty() || !renewals.get(renewals.size() - 1).equals(renewed)) {
          renewals.add(renewed);
        }
      }
      return renewals.size() >= 3;
    });
    return Duration.between(renewals.get(1), renewals.get(2));
  }

  /** Service account, role, role binding, 3 leases, disruption budget, 2 services: 9. */
  private static int runtimeComponents(KubernetesClient client, TestNamespace ns,
      EtcdNames names) {
    int count = 0;
    count += client.serviceAccounts().withName(names.serviceAccount()).get() == null ? 0 : 1;
    count += client.rbac().roles().withName(names.role()).get() == null ? 0 : 1;
    count += client.rbac().roleBindings().withName(names.roleBinding()).get() == null ? 0 : 1;
    for (String lease : new String[] {names.memberLease(0), names.fullSnapshotLease(),
        names.deltaSnapshotLease()}) {
      count += client.leases().withName(lease).get() == null ? 0 : 1;
    }
    count += client.policy().v1().podDisruptionBudget().withName(names.podDisruptionBudget())
        .get() == null ? 0 : 1;
    count += client.services().withName(names.clientService()).get() == null ? 0 : 1;
    count += client.services().withName(names.peerService()).get() == null ? 0 : 1;
    return count;
  }
}
