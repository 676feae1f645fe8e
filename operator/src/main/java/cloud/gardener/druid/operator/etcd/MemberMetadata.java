package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.operator.observe.ClusterSnapshot;
import cloud.gardener.druid.operator.action.RolloutAction.UpdateMemberMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes an {@link UpdateMemberMetadata}: replaces the labels and annotations of each
 * observed pod (by uid, in one JSON patch) with the desired ones, keeping the revisions of what it runs and the
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

  /**
   * One JSON patch (the verb the chart grants; no read first): a test of the pod's uid, so that
   * a pod that took the name since the observation is left alone (it was built with the desired
   * metadata), then the labels and annotations, the system's keys kept as observed.
   */
  private void apply(Etcd etcd, int ordinal, Pod observed) {
    ObjectMeta desired = MemberPodBuilder.metadata(etcd, settings, ordinal, observed);
    List<Map<String, Object>> ops = List.of(
        Map.of("op", "test", "path", "/metadata/uid", "value", observed.getMetadata().getUid()),
        Map.of("op", "add", "path", "/metadata/labels", "value", desired.getLabels()),
        Map.of("op", "add", "path", "/metadata/annotations", "value", withSystemKeys(
            desired.getAnnotations(), observed.getMetadata().getAnnotations())));
    String name = observed.getMetadata().getName();
    HttpResponse<String> response = RawPodRequest.send(client, "PATCH",
        etcd.getMetadata().getNamespace(), name, "application/json-patch+json", ops);
    // gone (404) or another pod of the name (422, the uid test): nothing to do
    if (!response.isSuccessful() && response.code() != 404 && response.code() != 422) {
      throw new KubernetesClientException("patching pod " + name + " failed with HTTP "
          + response.code() + ": " + response.body(), response.code(), null);
    }
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
