package cloud.gardener.druid.operator.webhook;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.tls.Certificates;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's component protection webhook, served by the operator: an HTTPS endpoint with a
 * certificate the operator issues itself at start, and the ValidatingWebhookConfiguration
 * naming it with that CA ({@link WebhookRegistration}). Changes (UPDATE, DELETE) to objects
 * labelled {@code app.kubernetes.io/managed-by: etcd-druid} by anyone but the operator and
 * the exempted service accounts are refused ({@link ComponentProtection}).
 */
public final class ComponentProtectionWebhook implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ComponentProtectionWebhook.class);
  public static final String PATH = "/webhooks/etcdcomponents";

  private final KubernetesClient client;
  private final ComponentProtection protection;
  private final AdmissionServer server;
  private final WebhookRegistration registration;

  private ComponentProtectionWebhook(KubernetesClient client, ComponentProtection protection,
      AdmissionServer server, WebhookRegistration registration) {
    this.client = client;
    this.protection = protection;
    this.server = server;
    this.registration = registration;
  }

  /** Issues the certificate, starts serving and registers the webhook with its CA. */
  public static ComponentProtectionWebhook start(KubernetesClient client,
      WebhookSettings settings, Set<String> namespaces, Clock clock) throws IOException {
    String operator = whoAmI(client);
    LOG.info("component protection: changes by {} (this operator) and {} are allowed", operator,
        settings.exempt());
    ComponentProtection protection = new ComponentProtection(operator, settings.exempt());
    WebhookCertificates certificates = settings.service().isPresent()
        ? WebhookCertificates.shared(client, settings.serviceNamespace(),
            settings.serviceName() + "-webhook-tls", settings.serverNames(), clock)
        : WebhookCertificates.issue(settings.serverNames(), clock);
    ComponentProtectionWebhook[] self = new ComponentProtectionWebhook[1];
    AdmissionServer server = new AdmissionServer(
        new InetSocketAddress(settings.bindAddress(), settings.port()), certificates.serving(),
        certificates.ca(), PATH, body -> self[0].review(body));
    WebhookRegistration registration = new WebhookRegistration(client, settings, namespaces);
    self[0] = new ComponentProtectionWebhook(client, protection, server, registration);
    server.start();
    registration.apply(certificates.caPem(), server.port());
    return self[0];
  }

  /** The operator's own user name, as the API server authenticates it. */
  static String whoAmI(KubernetesClient client) {
    SelfSubjectReview review = client.resource(new SelfSubjectReviewBuilder().build()).create();
    return review.getStatus().getUserInfo().getUsername();
  }

  int port() {
    return server.port();
  }

  /** One admission review: the request in, the answer out (JSON). */
  String review(String body) {
    AdmissionReview in = Serialization.unmarshal(body, AdmissionReview.class);
    AdmissionRequest request = in.getRequest();
    ComponentProtection.Change change = change(request);
    var response = new AdmissionResponseBuilder().withUid(request.getUid());
    try {
      ComponentProtection.Decision decision = protection.decide(change,
          protection.needsEtcd(change) ? parent(change) : Optional.empty());
      if (!decision.allowed()) {
        LOG.info("refused {} of {} {}/{} by {}", change.operation(), change.kind(),
            change.namespace(), change.name(), change.username());
      }
      response.withAllowed(decision.allowed()).withStatus(new StatusBuilder()
          .withCode(decision.allowed() ? 200 : 403).withMessage(decision.message()).build());
    } catch (KubernetesClientException e) {
      LOG.warn("{} of {} {}/{}: cannot read its Etcd: {}", change.operation(), change.kind(),
          change.namespace(), change.name(), e.getMessage(), e);
      response.withAllowed(false).withStatus(new StatusBuilder().withCode(500)
          .withMessage("cannot read the Etcd of " + change.kind() + " " + change.namespace()
              + "/" + change.name() + ": " + e.getMessage()).build());
    }
    return Serialization.asJson(new AdmissionReviewBuilder()
        .withApiVersion(in.getApiVersion()).withKind("AdmissionReview")
        .withResponse(response.build()).build());
  }

  private static ComponentProtection.Change change(AdmissionRequest request) {
    Object stored = request.getOldObject() != null ? request.getOldObject()
        : request.getObject();
    Map<String, String> labels = Map.of();
    boolean beingDeleted = false;
    if (stored instanceof HasMetadata object && object.getMetadata() != null) {
      labels = Optional.ofNullable(object.getMetadata().getLabels()).orElse(Map.of());
      beingDeleted = object.getMetadata().getDeletionTimestamp() != null;
    }
    return new ComponentProtection.Change(request.getOperation(), request.getKind().getKind(),
        request.getNamespace(), request.getName(), request.getUserInfo().getUsername(), labels,
        beingDeleted);
  }

  private Optional<Etcd> parent(ComponentProtection.Change change) {
    if (!Labels.MANAGED_BY_VALUE.equals(change.labels().get(Labels.MANAGED_BY))) {
      return Optional.empty();
    }
    String etcd = change.labels().get(Labels.PART_OF);
    if (etcd == null || change.namespace() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(client.resources(Etcd.class).inNamespace(change.namespace())
        .withName(etcd).get());
  }

  @Override
  public void close() {
    server.close();
  }
}
