package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.Labels;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.util.Optional;

/**
 * Where a member's agent listens: its pod's IP and the agent port, and the Etcd the member
 * belongs to (whose secrets hold the TLS material of the agent API).
 */
public record AgentEndpoint(String member, String host, int port, boolean tls, String namespace,
    String etcd) {

  private static final String SERVER_TLS_ARG = "--server-tls-dir=";

  public AgentEndpoint(String member, String host, int port, boolean tls) {
    this(member, host, port, tls, "", "");
  }

  /**
   * The agent of {@code pod}, over HTTPS when {@code tls} or when the pod's agent serves TLS
   * (every pod this operator builds: a pod of an older operator may still serve plain HTTP
   * until it is rolled).
   */
  public static Optional<AgentEndpoint> of(Pod pod, int port, boolean tls) {
    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || ip.isEmpty()) {
      return Optional.empty();
    }
    var meta = pod.getMetadata();
    String etcd = meta.getLabels() == null ? "" : meta.getLabels().getOrDefault(Labels.PART_OF, "");
    return Optional.of(new AgentEndpoint(meta.getName(), ip, port, tls || servesTls(pod),
        meta.getNamespace() == null ? "" : meta.getNamespace(), etcd));
  }

  private static boolean servesTls(Pod pod) {
    return pod.getSpec() != null && pod.getSpec().getContainers() != null
        && pod.getSpec().getContainers().stream()
            .filter(c -> c.getArgs() != null)
            .flatMap(c -> c.getArgs().stream())
            .anyMatch(a -> a.startsWith(SERVER_TLS_ARG));
  }

  public URI uri(String path) {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return URI.create((tls ? "https" : "http") + "://" + h + ":" + port + path);
  }
}
