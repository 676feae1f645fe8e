package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.ROLLOUT;
import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Real etcd members run by real agents in simulated pods: clusters form, data survives. */
@WithOperator
class EtcdLifecycleIT {

  @Test
  void singleMemberBecomesReadyAndKeepsItsDataAcrossAPodRestart(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("single");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "single");

    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      EtcdClients.put(etcdClient.getKVClient(), "/greeting", "hello");
    }
    java.nio.file.Path backups = operator.snapshots(etcd);
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
      try (var files = java.nio.file.Files.list(backups)) {
        assertThat(files.map(f -> f.getFileName().toString())).anyMatch(n -> n.startsWith("Full-"));
      }
    });
    client.pods().withName("single-0").delete();
    await().atMost(ROLLOUT).ignoreExceptions().until(() -> {
      var pod = client.pods().withName("single-0").get();
      return pod != null && pod.getMetadata().getDeletionTimestamp() == null
          && RolloutCompletion.isComplete(client.resources(Etcd.class).withName("single").get());
    });
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
          assertThat(EtcdClients.get(etcdClient.getKVClient(), "/greeting")).isEqualTo("hello"));
    }
  }

  @Test
  void threeMembersFormOneClusterAndSurviveLosingAnyOnePod(KubernetesClient client,
      TestNamespace ns) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("trio");
    client.resource(etcd).create();
    // a complete rollout saw every member vote in the observation its status came from
    Etcd ready = awaitRolloutComplete(client, "trio");
    assertThat(ready.getStatus().getMembers()).hasSize(3)
        .extracting(m -> m.getRole()).containsOnlyOnce("Leader");
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
      for (var member : ready.getStatus().getMembers()) {
        String holder = client.leases().withName(member.getName()).get().getSpec().getHolderIdentity();
        assertThat(holder).as("member lease of " + member.getName())
            .matches("[0-9a-f]+:[0-9a-f]+:(Leader|Member)").startsWith(member.getId() + ":");
      }
      assertThat(client.leases().withName("trio-full-snap").get().getSpec().getHolderIdentity())
          .as("full snapshot lease holds the snapshot revision").matches("[0-9]+");
    });
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      for (int i = 0; i < 100; i++) {
        EtcdClients.put(etcdClient.getKVClient(), "/k/" + i, "v" + i);
      }
    }
    for (String member : new String[] {"trio-1", "trio-0"}) {
      client.pods().withName(member).delete();
      await().atMost(ROLLOUT).ignoreExceptions().until(() ->
          client.pods().withName(member).get().getMetadata().getDeletionTimestamp() == null
              && RolloutCompletion.isComplete(client.resources(Etcd.class).withName("trio").get()));
      try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
        for (int i = 0; i < 100; i += 33) {
          assertThat(EtcdClients.get(etcdClient.getKVClient(), "/k/" + i)).isEqualTo("v" + i);
        }
      }
    }
  }

  @Test
  void oneMemberScalesOutToThreeWithoutEarlyCompletionAndKeepsItsData(KubernetesClient client,
      TestNamespace ns, OperatorHarness operator) throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("grow");
    // its own backup prefix: a member with no data restores whatever the prefix holds
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/grow");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "grow");
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      for (int i = 0; i < 20; i++) {
        EtcdClients.put(etcdClient.getKVClient(), "/before-scale/" + i, "v" + i);
      }
    }
    try (RolloutRecorder recorder = RolloutRecorder.start(client,
        client.resources(Etcd.class).withName("grow").get(), operator.settings())) {
      Etcd scaled = EtcdEdits.edit(client, "grow", e -> e.getSpec().setReplicas(3));
      awaitRolloutComplete(client, "grow");
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(scaled.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.restartedPods()).as("scale-out restarts no member").isEmpty();
    }
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      assertThat(etcdClient.getClusterClient().listMember().get().getMembers())
          .hasSize(3).noneMatch(m -> m.isLearner());
      for (int i = 0; i < 20; i++) {
        assertThat(EtcdClients.get(etcdClient.getKVClient(), "/before-scale/" + i)).isEqualTo("v" + i);
      }
    }
  }

  /**
   * A member's agent that stops answering (its process stopped, as a hung JVM is) keeps the
   * member's id and role in the status, marked as not answering, and the rollout is not shown
   * complete meanwhile; once it answers again the mark goes and the rollout completes.
   */
  @Test
  void aMemberWhoseAgentStopsAnsweringKeepsItsRoleAndIsMarked(KubernetesClient client,
      TestNamespace ns) throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("hung");
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/hung");
    client.resource(etcd).create();
    EtcdMemberStatus before = awaitRolloutComplete(client, "hung").getStatus().getMembers().get(0);
    assertThat(before.getRole()).isEqualTo("Leader");
    long agentPid = mainProcess(client.pods().withName("hung-0").get());

    signal("STOP", agentPid);
    try {
      Etcd silent = await().atMost(ROLLOUT).until(() -> ItSupport.etcd(client, "hung"),
          e -> e.getStatus().getMembers().get(0).getAgentNotAnsweringSince() != null);
      EtcdMemberStatus member = silent.getStatus().getMembers().get(0);
      assertThat(member.getRole()).isEqualTo("Leader");
      assertThat(member.getId()).isEqualTo(before.getId());
      assertThat(member.getReason()).isIn("AgentNotAnswering", "PodNotReady");
      assertThat(RolloutCompletion.isComplete(silent)).isFalse();
    } finally {
      signal("CONT", agentPid);
    }
    Etcd back = awaitRolloutComplete(client, "hung");
    assertThat(back.getStatus().getMembers().get(0).getAgentNotAnsweringSince()).isNull();
    assertThat(back.getStatus().getMembers().get(0).getRole()).isEqualTo("Leader");
  }

  /** The pod's main process: the node simulator names it in the container id. */
  private static long mainProcess(Pod pod) {
    String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
    assertThat(id).startsWith("druid-local://");
    return Long.parseLong(id.substring("druid-local://".length()));
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
        .inheritIO().start();
    assertThat(kill.waitFor()).as("kill -" + signal + " " + pid).isZero();
  }
}
