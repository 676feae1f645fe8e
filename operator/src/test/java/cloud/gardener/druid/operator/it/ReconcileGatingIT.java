package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

/**
 * With auto-reconcile off (upstream's default), a spec change waits for the annotation
 * {@code druid.gardener.cloud/operation: reconcile}, which is removed once the rollout is
 * done; {@code suspend-etcd-spec-reconcile} holds spec changes back entirely.
 */
@WithOperator(autoReconcile = false)
class ReconcileGatingIT {

  static final Duration HOLD = Duration.ofSeconds(8);

  @Test
  void specChangesWaitForTheReconcileAnnotationAndSuspendHoldsThemBack(KubernetesClient client,
      TestNamespace ns) throws Exception {
    Etcd etcd = load("etcd-1-local.yaml", ns.name());
    etcd.getMetadata().setName("gated");
    client.resource(etcd).create();
    awaitRolloutComplete(client, "gated");
    String firstRevision = podRevision(client);

    Etcd changed = edit(client, e -> e.getSpec().getEtcd().setQuota(new Quantity("2Gi")));
    await().during(HOLD).atMost(HOLD.plusSeconds(5)).until(() ->
        gated(client).getStatus().getObservedGeneration() == 1L
            && firstRevision.equals(podRevision(client)));

    edit(client, e -> annotate(e, Annotations.OPERATION, "reconcile"));
    awaitRolloutComplete(client, "gated");
    assertThat(gated(client).getStatus().getObservedGeneration())
        .isEqualTo(changed.getMetadata().getGeneration());
    assertThat(podRevision(client)).isNotEqualTo(firstRevision);
    await().atMost(Duration.ofSeconds(30)).until(() ->
        !gated(client).getMetadata().getAnnotations().containsKey(Annotations.OPERATION));

    String secondRevision = podRevision(client);
    edit(client, e -> annotate(e, Annotations.SUSPEND_SPEC_RECONCILE, "true"));
    Etcd suspended = edit(client, e -> {
      e.getSpec().getEtcd().setQuota(new Quantity("3Gi"));
      annotate(e, Annotations.OPERATION, "reconcile");
    });
    await().during(HOLD).atMost(HOLD.plusSeconds(5)).until(() ->
        secondRevision.equals(podRevision(client))
            && !RolloutCompletion.isComplete(gated(client)));

    edit(client, e -> e.getMetadata().getAnnotations().remove(Annotations.SUSPEND_SPEC_RECONCILE));
    awaitRolloutComplete(client, "gated");
    assertThat(gated(client).getStatus().getObservedGeneration())
        .isEqualTo(suspended.getMetadata().getGeneration());
  }

  private static Etcd gated(KubernetesClient client) {
    return client.resources(Etcd.class).withName("gated").get();
  }

  private static String podRevision(KubernetesClient client) {
    var pod = client.pods().withName("gated-0").get();
    return pod == null ? null : pod.getMetadata().getLabels().get(cloud.gardener.druid.api.Labels.MEMBER_REVISION);
  }

  private static void annotate(Etcd e, String key, String value) {
    if (e.getMetadata().getAnnotations() == null) {
      e.getMetadata().setAnnotations(new HashMap<>());
    }
    e.getMetadata().getAnnotations().put(key, value);
  }

  private static Etcd edit(KubernetesClient client, java.util.function.Consumer<Etcd> change) {
    return EtcdEdits.edit(client, "gated", change);
  }
}
