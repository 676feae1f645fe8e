package cloud.gardener.druid.operator.agent;

import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.util.Optional;

/** Where a member's agent listens: its pod's IP and the agent port. */
public record AgentEndpoint(String member, String host, int port, boolean tls) {

  public static Optional<AgentEndpoint> of(Pod pod, int port, boolean tls) {
    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || ip.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new AgentEndpoint(pod.getMetadata().getName(), ip, port, tls));
  }

  public URI uri(String path) {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return URI.create((tls ? "https" : "http") + "://" + h + ":" + port + path);
  }
}
