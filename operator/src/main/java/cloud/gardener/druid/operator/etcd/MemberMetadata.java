package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.action.RolloutAction.UpdateMemberMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Executes an {@link UpdateMemberMetadata}: replaces the labels and annotations of each
 * observed pod (by uid) with the desired ones, keeping the revisions of what it runs and the
 * annotations the system writes ({@code kubernetes.io}/{@code k8s.io} keys). A label or
 * annotation removed from the spec is removed from the pods.
 */
final class MemberMetadata {

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final EventRecorder events;

  MemberMetadata(KubernetesClient client, OperatorSettings settings, EventRecorder events) {
    this.client = client;
    this.settings = settings;
    this.events = events;
  }

  void update(ClusterSnapshot s, UpdateMemberMetadata action) {
    Etcd etcd = s.etcd();
    for (int ordinal : action.ordinals()) {
      s.members().get(ordinal).pod().ifPresent(observed -> apply(etcd, ordinal, observed));
    }
    events.normal(etcd, "MemberMetadataUpdated", action.describe());
  }

  private void apply(Etcd etcd, int ordinal, Pod observed) {
    ObjectMeta desired = MemberPodBuilder.metadata(etcd, settings, ordinal, observed);
    String uid = observed.getMetadata().getUid();
    client.pods().inNamespace(etcd.getMetadata().getNamespace())
        .withName(observed.getMetadata().getName()).edit(p -> {
          if (!uid.equals(p.getMetadata().getUid())) {
            return p; // another pod holds the name now: it was built with the desired metadata
          }
          p.getMetadata().setLabels(desired.getLabels());
          p.getMetadata().setAnnotations(withSystemKeys(desired.getAnnotations(),
              p.getMetadata().getAnnotations()));
          return p;
        });
  }

  private static Map<String, String> withSystemKeys(Map<String, String> desired,
      Map<String, String> current) {
    Map<String, String> merged = new LinkedHashMap<>(desired);
    if (current != null) {
      current.forEach((k, v) -> {
        if (k.contains("kubernetes.io/") || k.contains("k8s.io/")) {
          merged.putIfAbsent(k, v);
        }
      });
    }
    return merged;
  }
}
