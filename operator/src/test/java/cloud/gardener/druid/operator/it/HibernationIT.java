package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Hibernation with volumes kept: {@code replicas: 0} takes a final full snapshot through the
 * leader before any member goes, then removes every pod and keeps the PVCs; the status shows
 * no member and the rollout predicate holds for replicas 0 (conditions keep their status with
 * reason NotChecked, as upstream). Waking up ({@code replicas: 3}) starts the members on their
 * data again: every key is back and the rollout completes.
 */
@WithOperator
class HibernationIT {

  private static final Pattern FULL = Pattern.compile("Full-(\\d{8,})-(\\d{8,})-\\d+(\\.gz)?\\.final");

  @Test
  void hibernatesAfterAFinalSnapshotKeepsTheVolumesAndWakesUpWithEveryKey(
      KubernetesClient client, TestNamespace ns, OperatorHarness operator) throws Exception {
    OperatorSettings settings = operator.settings();
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("sleepy");
    String prefix = ns.name() + "/sleepy";
    etcd.getSpec().getBackup().getStore().setPrefix(prefix);
    client.resource(etcd).create();
    awaitRolloutComplete(client, "sleepy");

    long lastRevision = 0;
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      for (int i = 0; i < 100; i++) {
        lastRevision = etcdClient.getKVClient().put(EtcdClients.bytes("/sleep/" + i),
            EtcdClients.bytes("v" + i)).get(10, TimeUnit.SECONDS).getHeader().getRevision();
      }
    }

    try (RolloutRecorder recorder = RolloutRecorder.start(client, etcd(client), settings)) {
      Etcd asleep = EtcdEdits.edit(client, "sleepy", e -> e.getSpec().setReplicas(0));
      awaitRolloutComplete(client, "sleepy");
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(asleep.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.lastOperations())
          .as("the final snapshot runs in the background, not on the reconcile thread")
          .anyMatch(d -> d.endsWith("waiting for the final full snapshot before hibernation"));
    }
    assertThat(pods(client, etcd)).isEmpty();
    assertThat(client.persistentVolumeClaims().list().getItems())
        .extracting(p -> p.getMetadata().getName())
        .as("volumes are kept").containsExactlyInAnyOrder("sleepy-sleepy-0", "sleepy-sleepy-1",
            "sleepy-sleepy-2");
    Etcd hibernated = etcd(client);
    assertThat(hibernated.getStatus().getReadyReplicas()).isZero();
    assertThat(hibernated.getStatus().getCurrentReplicas()).isZero();
    assertThat(hibernated.getStatus().getReady()).isFalse();
    assertThat(hibernated.getStatus().getMembers()).isNullOrEmpty();
    assertThat(hibernated.getStatus().getConditions()).isNotEmpty()
        .allSatisfy(c -> assertThat(c.getReason()).isEqualTo("NotChecked"));
    assertThat(RolloutCompletion.isComplete(hibernated)).isTrue();

    Path store = operator.snapshots(hibernated);
    long finalRevision = newestFinalSnapshotEndRevision(store);
    assertThat(finalRevision).as("the final full snapshot holds every write")
        .isGreaterThanOrEqualTo(lastRevision);
    // events are recorded after the status is written, not with it
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(reasons(client)).as("the final snapshot is taken before members go")
            .containsSubsequence("FinalSnapshotTaken", "Hibernating"));

    try (RolloutRecorder recorder = RolloutRecorder.start(client, etcd(client), settings)) {
      Etcd awake = EtcdEdits.edit(client, "sleepy", e -> e.getSpec().setReplicas(3));
      awaitRolloutComplete(client, "sleepy");
      assertThat(recorder.violations()).isEmpty();
      assertThat(recorder.completeVersions(awake.getMetadata().getGeneration())).isPositive();
    }
    assertThat(etcd(client).getStatus().getMembers()).hasSize(3)
        .allSatisfy(m -> assertThat(m.getStatus()).isEqualTo("Ready"));
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      assertThat(etcdClient.getClusterClient().listMember().get(10, TimeUnit.SECONDS)
          .getMembers()).hasSize(3);
      for (int i = 0; i < 100; i++) {
        assertThat(EtcdClients.get(etcdClient.getKVClient(), "/sleep/" + i)).isEqualTo("v" + i);
      }
    }
  }

  private static long newestFinalSnapshotEndRevision(Path store) throws Exception {
    try (Stream<Path> files = Files.list(store)) {
      return files.map(f -> FULL.matcher(f.getFileName().toString()))
          .filter(Matcher::matches)
          .map(m -> Long.parseLong(m.group(2)))
          .max(Comparator.naturalOrder())
          .orElseThrow(() -> new AssertionError("no final full snapshot in " + store));
    }
  }

  private static List<String> reasons(KubernetesClient client) {
    return client.v1().events().list().getItems().stream()
        .filter(e -> "sleepy".equals(e.getInvolvedObject().getName()))
        .sorted(Comparator.comparing((Event e) -> e.getEventTime() == null ? ""
            : e.getEventTime().getTime()))
        .map(Event::getReason).toList();
  }

  private static List<?> pods(KubernetesClient client, Etcd etcd) {
    return client.pods().withLabels(EtcdLabels.memberSelector(etcd)).list().getItems();
  }

  private static Etcd etcd(KubernetesClient client) {
    return client.resources(Etcd.class).withName("sleepy").get();
  }
}
