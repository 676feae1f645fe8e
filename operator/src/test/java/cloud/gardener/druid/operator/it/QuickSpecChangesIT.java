package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Many spec changes in quick succession while a rollout is under way, to try to break the
 * rollout predicate now that the operator reads from informer caches: every status version
 * and pod change is recorded ({@link RolloutRecorder}) and none may claim completion while a
 * member of an older revision runs; the last generation ends complete on every member.
 */
@WithOperator
class QuickSpecChangesIT {

  private static final int CHANGES = 10;

  @Test
  void tenQuickChangesNeverShowAnEarlyCompletion(TestNamespace ns, KubernetesClient client,
      OperatorHarness operator) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName("quick");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "quick");

    try (RolloutRecorder recorder = RolloutRecorder.start(client, ItSupport.etcd(client, "quick"),
        operator.settings())) {
      long generation = 0;
      for (int i = 0; i < CHANGES; i++) {
        int change = i;
        long before = System.nanoTime();
        Etcd changed = EtcdEdits.edit(client, "quick", e -> {
          Map<String, String> labels = new HashMap<>(e.getSpec().getLabels());
          labels.put("change", "c" + change);
          e.getSpec().setLabels(labels);
        });
        generation = changed.getMetadata().getGeneration();
        // a few hundred ms apart: wait for the time, not for the operator
        await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
            .until(() -> System.nanoTime() - before > Duration.ofMillis(300).toNanos());
      }
      awaitRolloutComplete(client, "quick", Duration.ofMinutes(5));
      assertThat(recorder.violations()).as(recorder.describe()).isEmpty();
      assertThat(recorder.completeVersions(generation)).isPositive();
      assertThat(ItSupport.pods(client, "quick")).hasSize(3).allSatisfy(p ->
          assertThat(p.getMetadata().getLabels()).containsEntry("change", "c" + (CHANGES - 1))
              .containsEntry(Labels.PART_OF, "quick"));
    }
  }
}
