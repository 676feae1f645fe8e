package cloud.gardener.druid.operator.etcd;

import io.fabric8.kubernetes.api.model.Event;
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
 * The operator's one recorder of Kubernetes events, on Etcds and on the tasks that act on
 * them; every event names the operator replica that acted as reporting instance. A failure to
 * record is logged and never fails a reconcile.
 */
public final class EventRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  static final String COMPONENT = "etcd-druid";
  /** The API server refuses event messages over 1 KiB. */
  static final int MAX_MESSAGE = 1000;
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

  private final KubernetesClient client;
  private final String instance;

  /** @param instance the reporting instance of the events: which operator replica acted */
  public EventRecorder(KubernetesClient client, String instance) {
    this.client = client;
    this.instance = instance;
  }

  public void normal(HasMetadata object, String reason, String message) {
    record(event(object, "Normal", reason, message, instance, Instant.now()));
  }

  public void warning(HasMetadata object, String reason, String message) {
    record(event(object, "Warning", reason, message, instance, Instant.now()));
  }

  private void record(Event event) {
    var about = event.getInvolvedObject();
    LOG.info("{} {}/{}: {} {}", about.getKind(), about.getNamespace(), about.getName(),
        event.getReason(), event.getMessage());
    try {
      client.v1().events().inNamespace(about.getNamespace()).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.warn("cannot record event {} on {} {}: {}", event.getReason(), about.getKind(),
          about.getName(), e.getMessage());
    }
  }

  /** The event about {@code object}, named after it, at {@code at}. */
  static Event event(HasMetadata object, String type, String reason, String message,
      String instance, Instant at) {
    String namespace = object.getMetadata().getNamespace();
    String name = object.getMetadata().getName();
    String seconds = at.truncatedTo(ChronoUnit.SECONDS).toString();
    return new EventBuilder()
        .withNewMetadata()
          .withName(name + "." + UUID.randomUUID().toString().substring(0, 13))
          .withNamespace(namespace)
        .endMetadata()
        .withNewInvolvedObject()
          .withApiVersion(object.getApiVersion() != null ? object.getApiVersion()
              : HasMetadata.getApiVersion(object.getClass()))
          .withKind(object.getKind() != null ? object.getKind()
              : HasMetadata.getKind(object.getClass()))
          .withName(name).withNamespace(namespace).withUid(object.getMetadata().getUid())
        .endInvolvedObject()
        .withType(type).withReason(reason).withMessage(truncate(message))
        .withFirstTimestamp(seconds).withLastTimestamp(seconds).withCount(1)
        .withEventTime(new MicroTime(MICRO_TIME.format(at)))
        .withReportingComponent(COMPONENT).withReportingInstance(instance)
        .withAction(reason)
        .withNewSource().withComponent(COMPONENT).endSource()
        .build();
  }

  private static String truncate(String message) {
    return message.length() <= MAX_MESSAGE ? message
        : message.substring(0, MAX_MESSAGE - 3) + "...";
  }
}
