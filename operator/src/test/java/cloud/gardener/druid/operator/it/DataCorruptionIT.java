package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.pods;
import static cloud.gardener.druid.operator.it.MemberDatabases.database;
import static cloud.gardener.druid.operator.it.MemberDatabases.endpointOf;
import static cloud.gardener.druid.operator.it.MemberDatabases.isLeader;
import static cloud.gardener.druid.operator.it.MemberDatabases.replaceInPlace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.api.v1alpha1.ReplaceMemberVolumeConfig;
import cloud.gardener.druid.operator.metrics.EtcdGauges;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * etcd's corruption checks through the operator (docs/backup-verification.md): a member whose
 * database changed while it was stopped is named in DataConsistent, its member status and the
 * metric, and the task the condition names brings it back.
 */
@WithOperator
class DataCorruptionIT {

  private static final String ETCD = "corrupt";

  @Test
  void aMemberWhoseDatabaseChangedWhileStoppedIsNamedThenReplaced(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    createEtcdWithVolumes(client, ns, ETCD, 3, "standard");
    awaitRolloutComplete(client, ETCD);
    await().atMost(Duration.ofSeconds(30)).until(() -> consistent(client)
        .filter(c -> ConditionTypes.TRUE.equals(c.getStatus())).isPresent());
    Pod follower = pods(client, ETCD).stream()
        .filter(p -> !isLeader(client, p)).findFirst().orElseThrow();
    String member = follower.getMetadata().getName();
    try (Client c = EtcdClients.connect(List.of(endpointOf(follower)))) {
      EtcdClients.put(c.getKVClient(), "/config/replicas", "replicas=3");
      // a read through the follower: it has applied the write before it stops
      assertThat(EtcdClients.get(c.getKVClient(), "/config/replicas")).isEqualTo("replicas=3");
    }

    // stopped: no pod is recreated while the spec reconcile is suspended
    edit(client, e -> e.getMetadata().getAnnotations()
        .put(Annotations.SUSPEND_SPEC_RECONCILE, "true"));
    client.resource(follower).delete();
    await().atMost(Duration.ofSeconds(60)).until(() ->
        client.pods().withName(member).get() == null);
    int changed = replaceInPlace(database(client, ETCD, member), "replicas=3", "replicas=9");
    assertThat(changed).as("copies of the value in the member's database").isPositive();
    edit(client, e -> e.getMetadata().getAnnotations()
        .remove(Annotations.SUSPEND_SPEC_RECONCILE));

    Condition found = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
        .until(() -> consistent(client).orElse(null),
            c -> c != null && ConditionTypes.FALSE.equals(c.getStatus()));
    assertThat(found.getReason()).isEqualTo("CorruptionDetected");
    assertThat(found.getMessage()).contains(member + " (etcd's initial corruption check found"
        + " this member's data differs from its peers'")
        .contains("kubectl druid replace-member-volume " + ETCD + " " + member);
    EtcdMemberStatus status = etcd(client, ETCD).getStatus().getMembers().stream()
        .filter(m -> member.equals(m.getName())).findFirst().orElseThrow();
    assertThat(status.getReason()).isEqualTo("DataCorrupted");
    assertThat(status.getDataCorruption()).contains("etcd refused to start");
    Map<String, String> labels = Map.of("etcd_namespace", ns.name(), "etcd", ETCD,
        "member", member);
    await().atMost(Duration.ofSeconds(10)).until(() -> PrometheusScrape
        .parse(operator.scrapeMetrics()).value(EtcdGauges.MEMBER_DATA_CORRUPTED, labels)
        .filter(v -> v == 1.0).isPresent());

    createTask(client, "replace-" + member, ETCD, c -> {
      ReplaceMemberVolumeConfig r = new ReplaceMemberVolumeConfig();
      r.setMemberName(member);
      c.setReplaceMemberVolume(r);
    }, null);
    awaitTaskState(client, "replace-" + member, "Succeeded");
    awaitRolloutComplete(client, ETCD);
    await().atMost(Duration.ofSeconds(30)).until(() -> consistent(client)
        .filter(c -> ConditionTypes.TRUE.equals(c.getStatus())).isPresent());
    try (Client c = EtcdClients.connect(List.of(endpointOf(client.pods().withName(member)
        .get())))) {
      assertThat(EtcdClients.get(c.getKVClient(), "/config/replicas")).as("served by " + member)
          .isEqualTo("replicas=3");
    }
    assertThat(PrometheusScrape.parse(operator.scrapeMetrics())
        .value(EtcdGauges.MEMBER_DATA_CORRUPTED, labels)).hasValue(0.0);
  }

  private static Optional<Condition> consistent(KubernetesClient client) {
    Etcd e = etcd(client, ETCD);
    return e.getStatus() == null ? Optional.empty()
        : Condition.find(e.getStatus().getConditions(), ConditionTypes.DATA_CONSISTENT);
  }

  private static void edit(KubernetesClient client, java.util.function.Consumer<Etcd> f) {
    EtcdEdits.edit(client, ETCD, e -> {
      if (e.getMetadata().getAnnotations() == null) {
        e.getMetadata().setAnnotations(new java.util.HashMap<>());
      }
      f.accept(e);
    });
  }
}
