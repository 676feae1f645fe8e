package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** Records core/v1 Events about pods, as the kubelet does. */
final class PodEvents {

  private PodEvents() {
  }

  static void record(KubernetesClient client, Pod pod, String type, String reason,
      String message) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    Event event = new EventBuilder()
        .withNewMetadata()
        .withName(pod.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
        .withNamespace(pod.getMetadata().getNamespace())
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion("v1").withKind("Pod")
        .withName(pod.getMetadata().getName())
        .withNamespace(pod.getMetadata().getNamespace())
        .withUid(pod.getMetadata().getUid())
        .endInvolvedObject()
        .withType(type).withReason(reason).withMessage(message)
        .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
        .withNewSource().withComponent("druid-node-simulator").endSource()
        .build();
    try {
      client.v1().events().inNamespace(pod.getMetadata().getNamespace()).resource(event).create();
    } catch (KubernetesClientException e) {
      // events are best effort, as in the kubelet (e.g. the namespace is being deleted)
    }
  }
}
