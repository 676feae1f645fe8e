package cloud.gardener.druid.operator.webhook;

import cloud.gardener.druid.api.Labels;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * The ValidatingWebhookConfiguration of the component protection webhook, written by the
 * operator with its CA at every start (server-side apply). Its rules are upstream's, plus
 * member pods and the operator's Secrets (upstream protects the StatefulSet instead).
 */
final class WebhookRegistration {

  static final String WEBHOOK_NAME = "etcdcomponents.webhooks.druid.gardener.cloud";
  static final String NAMESPACE_NAME = "kubernetes.io/metadata.name";

  private final KubernetesClient client;
  private final WebhookSettings settings;
  private final Set<String> namespaces;

  WebhookRegistration(KubernetesClient client, WebhookSettings settings, Set<String> namespaces) {
    this.client = client;
    this.settings = settings;
    this.namespaces = Set.copyOf(namespaces);
  }

  void apply(String caPem, int port) {
    client.resource(build(settings, namespaces, caPem, port)).fieldManager("etcd-druid")
        .forceConflicts().serverSideApply();
  }

  /** @param namespaces the namespaces the operator manages; empty: all */
  static ValidatingWebhookConfiguration build(WebhookSettings settings, Set<String> namespaces,
      String caPem, int port) {
    LabelSelector namespaceSelector = namespaces.isEmpty() ? new LabelSelector()
        : new LabelSelectorBuilder().addNewMatchExpression().withKey(NAMESPACE_NAME)
            .withOperator("In").withValues(namespaces.stream().sorted().toList())
            .endMatchExpression().build();
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(settings.configurationName())
        .addToLabels(Labels.NAME, "etcd-druid").endMetadata()
        .addNewWebhook()
        .withName(WEBHOOK_NAME)
        .withAdmissionReviewVersions("v1")
        .withClientConfig(clientConfig(settings, caPem, port))
        .withFailurePolicy("Fail")
        .withMatchPolicy("Exact")
        .withSideEffects("None")
        .withTimeoutSeconds(10)
        .withNamespaceSelector(namespaceSelector)
        .withNewObjectSelector().addToMatchLabels(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE)
        .endObjectSelector()
        .withRules(rules())
        .endWebhook()
        .build();
  }

  static List<RuleWithOperations> rules() {
    return List.of(
        rule("", List.of("UPDATE", "DELETE"), "serviceaccounts", "services", "configmaps",
            "secrets", "pods"),
        rule("", List.of("DELETE"), "persistentvolumeclaims"),
        rule("rbac.authorization.k8s.io", List.of("UPDATE", "DELETE"), "roles", "rolebindings"),
        rule("policy", List.of("UPDATE", "DELETE"), "poddisruptionbudgets"),
        rule("batch", List.of("UPDATE", "DELETE"), "jobs"),
        rule("coordination.k8s.io", List.of("UPDATE", "DELETE"), "leases"));
  }

  private static RuleWithOperations rule(String group, List<String> operations,
      String... resources) {
    return new RuleWithOperationsBuilder().withApiGroups(group).withApiVersions("v1")
        .withOperations(operations).withResources(resources).withScope("Namespaced").build();
  }

  private static WebhookClientConfig clientConfig(WebhookSettings settings, String caPem,
      int port) {
    var config = new WebhookClientConfigBuilder().withCaBundle(
        Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8)));
    if (settings.service().isPresent()) {
      String service = settings.service().get();
      config.withNewService().withNamespace(service.substring(0, service.indexOf('/')))
          .withName(service.substring(service.indexOf('/') + 1)).withPort(port)
          .withPath(ComponentProtectionWebhook.PATH).endService();
    } else {
      config.withUrl("https://" + settings.host().get() + ":" + port
          + ComponentProtectionWebhook.PATH);
    }
    return config.build();
  }
}
