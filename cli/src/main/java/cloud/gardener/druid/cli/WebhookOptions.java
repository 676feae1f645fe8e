package cloud.gardener.druid.cli;

import cloud.gardener.druid.cli.shared.UserError;
import cloud.gardener.druid.operator.webhook.WebhookSettings;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Option;

/** The component protection webhook's options of {@code druid operator} (upstream's names). */
final class WebhookOptions {

  @Option(names = "--enable-etcd-components-webhook", negatable = true, defaultValue = "false",
      fallbackValue = "true",
      description = "Refuse changes to the objects the operator manages by anyone but the"
          + " operator and the exempted service accounts (upstream's component protection"
          + " webhook; default: ${DEFAULT-VALUE}, as upstream).")
  boolean enabled;

  @Option(names = "--etcd-components-webhook-exempt-service-accounts", paramLabel = "USER",
      split = ",", defaultValue = WebhookSettings.GARBAGE_COLLECTOR,
      description = "User names (system:serviceaccount:NS:NAME) that may change managed objects"
          + " while no reconcile runs (default: ${DEFAULT-VALUE}).")
  List<String> exempt;

  @Option(names = "--webhook-server-bind-address", paramLabel = "ADDRESS",
      defaultValue = "0.0.0.0", description = "Address of the webhook's HTTPS port"
          + " (default: ${DEFAULT-VALUE}).")
  String bindAddress;

  @Option(names = "--webhook-server-port", paramLabel = "PORT",
      defaultValue = "" + WebhookSettings.DEFAULT_PORT,
      description = "The webhook's HTTPS port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--webhook-service", paramLabel = "NAMESPACE/NAME",
      description = "The Service the API server calls the webhook through; its certificate is"
          + " kept in the Secret NAME-webhook-tls of NAMESPACE (the chart sets it).")
  String service;

  @Option(names = "--webhook-host", paramLabel = "HOST",
      description = "Instead of a Service: the host the API server calls"
          + " (https://HOST:PORT/webhooks/etcdcomponents), e.g. 127.0.0.1 beside a local"
          + " control plane.")
  String host;

  @Option(names = "--webhook-configuration-name", paramLabel = "NAME",
      defaultValue = WebhookSettings.DEFAULT_CONFIGURATION_NAME,
      description = "The ValidatingWebhookConfiguration the operator writes"
          + " (default: ${DEFAULT-VALUE}).")
  String configurationName;

  /** The webhook's settings, or empty when it is off. */
  Optional<WebhookSettings> settings() {
    if (!enabled) {
      return Optional.empty();
    }
    Set<String> exempted = new LinkedHashSet<>(exempt == null ? List.of() : exempt);
    exempted.remove("");
    try {
      return Optional.of(new WebhookSettings(configurationName, bindAddress, port,
          Optional.ofNullable(service), Optional.ofNullable(host), exempted));
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage() + " (--webhook-service or --webhook-host)");
    }
  }
}
