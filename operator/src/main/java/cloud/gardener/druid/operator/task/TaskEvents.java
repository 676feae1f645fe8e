package cloud.gardener.druid.operator.task;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Kubernetes events on tasks and on the Etcds they act on; a failure to record never
 * fails a reconcile.
 */
final class TaskEvents {

  private static final Logger LOG = LoggerFactory.getLogger(TaskEvents.class);
  private static final String COMPONENT = "etcd-druid";
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

  private final KubernetesClient client;
  private final String instance;

  /** @param instance the reporting instance of the events: which operator replica acted */
  TaskEvents(KubernetesClient client, String instance) {
    this.client = client;
    this.instance = instance;
  }

  void normal(HasMetadata object, String reason, String message) {
    record(object, "Normal", reason, message);
  }

  void warning(HasMetadata object, String reason, String message) {
    record(object, "Warning", reason, message);
  }

  private void record(HasMetadata object, String type, String reason, String message) {
    String ns = object.getMetadata().getNamespace();
    String name = object.getMetadata().getName();
    LOG.info("{} {}/{}: {} {}", object.getKind(), ns, name, reason, message);
    Instant instant = Instant.now();
    String now = instant.truncatedTo(ChronoUnit.SECONDS).toString();
    try {
      client.v1().events().inNamespace(ns).resource(new EventBuilder()
          .withNewMetadata()
            .withName(name + "." + UUID.randomUUID().toString().substring(0, 13))
            .withNamespace(ns)
          .endMetadata()
          .withNewInvolvedObject()
            .withApiVersion(object.getApiVersion()).withKind(object.getKind())
            .withName(name).withNamespace(ns).withUid(object.getMetadata().getUid())
          .endInvolvedObject()
          .withType(type).withReason(reason).withMessage(truncate(message))
          .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
          .withEventTime(new MicroTime(MICRO_TIME.format(instant)))
          .withReportingComponent(COMPONENT).withReportingInstance(instance)
          .withAction(reason)
          .withNewSource().withComponent(COMPONENT).endSource()
          .build()).create();
    } catch (KubernetesClientException e) {
      LOG.warn("cannot record event {} on {} {}: {}", reason, object.getKind(), name,
          e.getMessage());
    }
  }

  /** Event messages are limited to 1 KiB by the API server. */
  private static String truncate(String message) {
    return message.length() <= 1000 ? message : message.substring(0, 997) + "...";
  }
}
