package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.EventBuilder;
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

/** Records Kubernetes events on an Etcd; a failure to record never fails a reconcile. */
public final class EventRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final String COMPONENT = "etcd-druid";
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

  private final KubernetesClient client;
  private final String instance;

  public EventRecorder(KubernetesClient client) {
    this(client, COMPONENT);
  }

  /** @param instance the reporting instance of the events: which operator replica acted */
  public EventRecorder(KubernetesClient client, String instance) {
    this.client = client;
    this.instance = instance;
  }

  public void normal(Etcd etcd, String reason, String message) {
    record(etcd, "Normal", reason, message);
  }

  public void warning(Etcd etcd, String reason, String message) {
    record(etcd, "Warning", reason, message);
  }

  private void record(Etcd etcd, String type, String reason, String message) {
    LOG.info("{}/{}: {} {}", etcd.getMetadata().getNamespace(), etcd.getMetadata().getName(),
        reason, message);
    Instant instant = Instant.now();
    String now = instant.truncatedTo(ChronoUnit.SECONDS).toString();
    try {
      client.v1().events().inNamespace(etcd.getMetadata().getNamespace()).resource(new EventBuilder()
          .withNewMetadata()
            .withName(etcd.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 13))
            .withNamespace(etcd.getMetadata().getNamespace())
          .endMetadata()
          .withNewInvolvedObject()
            .withApiVersion(Etcd.GROUP + "/" + Etcd.VERSION).withKind("Etcd")
            .withName(etcd.getMetadata().getName()).withNamespace(etcd.getMetadata().getNamespace())
            .withUid(etcd.getMetadata().getUid())
          .endInvolvedObject()
          .withType(type).withReason(reason).withMessage(message)
          .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
          .withEventTime(new MicroTime(MICRO_TIME.format(instant)))
          .withReportingComponent(COMPONENT).withReportingInstance(instance)
          .withAction(reason)
          .withNewSource().withComponent(COMPONENT).endSource()
          .build()).create();
    } catch (KubernetesClientException e) {
      LOG.warn("cannot record event {} on {}: {}", reason, etcd.getMetadata().getName(), e.getMessage());
    }
  }
}
