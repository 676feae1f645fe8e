package cloud.gardener.druid.operator.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How the component protection webhook is served and reached.
 *
 * @param configurationName the ValidatingWebhookConfiguration the operator writes
 * @param service {@code namespace/name} of the Service in front of the operator (in a cluster)
 * @param host the host the API server calls instead of a Service (a local control plane:
 *     {@code 127.0.0.1}); then {@code https://<host>:<port>/webhooks/etcdcomponents}
 * @param exempt user names that may change managed objects while no reconcile runs
 */
public record WebhookSettings(String configurationName, String bindAddress, int port,
    Optional<String> service, Optional<String> host, Set<String> exempt) {

  /** Upstream's default exemption: the garbage collector deletes what an Etcd owned. */
  public static final String GARBAGE_COLLECTOR =
      "system:serviceaccount:kube-system:generic-garbage-collector";
  public static final String DEFAULT_CONFIGURATION_NAME = "etcd-druid-component-protection";
  public static final int DEFAULT_PORT = 9443;

  public WebhookSettings {
    if (service.isEmpty() == host.isEmpty()) {
      throw new IllegalArgumentException("the webhook needs exactly one of a service"
          + " (namespace/name) and a host");
    }
    service.ifPresent(s -> {
      if (!s.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
        throw new IllegalArgumentException("--webhook-service must be namespace/name, not " + s);
      }
    });
    exempt = Set.copyOf(exempt);
  }

  String serviceNamespace() {
    return service.orElseThrow().substring(0, service.get().indexOf('/'));
  }

  String serviceName() {
    return service.orElseThrow().substring(service.get().indexOf('/') + 1);
  }

  /** The names in the serving certificate: the Service's DNS names, or the host. */
  List<String> serverNames() {
    List<String> names = new ArrayList<>();
    if (service.isPresent()) {
      names.add(serviceName() + "." + serviceNamespace() + ".svc");
      names.add(serviceName() + "." + serviceNamespace() + ".svc.cluster.local");
    }
    host.ifPresent(names::add);
    return names;
  }
}
