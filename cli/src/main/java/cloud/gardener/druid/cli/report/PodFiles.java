package cloud.gardener.druid.cli.report;

import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.agent.AgentTlsContexts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * What a support bundle holds per pod: each container's log (and the previous one after a
 * restart), and what the pod's HTTP port answers: a member's agent its metrics, health and
 * member status (over the agent's TLS, with the Etcd's agent credentials as the operator
 * uses them), the operator its metrics. Pod addresses are dialled directly, so that part
 * needs a machine that reaches the pods (inside the cluster's network, or {@code druid
 * local}); elsewhere it is listed as not collected, with the reason.
 */
final class PodFiles {

  static final String AGENT_PORT = "agent";
  static final String OPERATOR_PORT = "health";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final KubernetesClient client;
  private final SupportBundle bundle;
  private final AgentTlsContexts agentTls;

  PodFiles(KubernetesClient client, SupportBundle bundle) {
    this.client = client;
    this.bundle = bundle;
    this.agentTls = new AgentTlsContexts(client, Clock.systemUTC());
  }

  /** The logs of every container of {@code pod}, under {@code folder}. */
  void logs(String folder, Pod pod) throws IOException {
    String name = pod.getMetadata().getName();
    for (Container c : pod.getSpec().getContainers()) {
      var logs = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(name)
          .inContainer(c.getName());
      log(folder + "/" + name + "/" + c.getName() + ".log", () -> logs.getLog());
      if (restarts(pod, c.getName()) > 0) {
        log(folder + "/" + name + "/" + c.getName() + ".previous.log",
            () -> logs.terminated().getLog());
      }
    }
  }

  /** A member pod's agent: metrics, health and member status. */
  void agent(Pod pod) throws IOException {
    Optional<Integer> port = port(pod, AGENT_PORT);
    String folder = "agents/" + pod.getMetadata().getName() + "/";
    Optional<AgentEndpoint> endpoint = port.flatMap(p -> AgentEndpoint.of(pod, p, true));
    if (endpoint.isEmpty()) {
      bundle.missing(folder, "the pod has no address or no port named " + AGENT_PORT);
      return;
    }
    Optional<SSLContext> tls;
    try {
      tls = agentTls.contextFor(endpoint.get());
    } catch (RuntimeException e) {
      bundle.missing(folder, "the agent's TLS credentials: " + Reasons.of(e));
      return;
    }
    String base = "https://" + endpoint.get().host() + ":" + endpoint.get().port();
    for (String path : List.of(AgentApi.METRICS, AgentApi.HEALTHZ, AgentApi.MEMBER_STATUS)) {
      get(folder + path.substring(1).replace('/', '-') + ".txt", base + path, tls);
    }
  }

  /** An operator pod's metrics. */
  void operatorMetrics(Pod pod) throws IOException {
    String file = "operator/" + pod.getMetadata().getName() + "/metrics.txt";
    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    Optional<Integer> port = port(pod, OPERATOR_PORT);
    if (ip == null || port.isEmpty()) {
      bundle.missing(file, "the pod has no address or no port named " + OPERATOR_PORT);
      return;
    }
    get(file, "http://" + ip + ":" + port.get() + "/metrics", Optional.empty());
  }

  private interface LogCall {
    String get();
  }

  private void log(String path, LogCall call) throws IOException {
    try {
      bundle.add(path, Optional.ofNullable(call.get()).orElse(""));
    } catch (KubernetesClientException e) {
      bundle.missing(path, Reasons.of(e));
    }
  }

  private void get(String path, String url, Optional<SSLContext> tls) throws IOException {
    HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(TIMEOUT);
    tls.ifPresent(http::sslContext);
    try {
      HttpResponse<String> r = http.build().send(HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT)
          .build(), HttpResponse.BodyHandlers.ofString());
      bundle.add(path, "# GET " + url + " -> " + r.statusCode() + "\n" + r.body());
    } catch (IOException e) {
      bundle.missing(path, "GET " + url + ": " + Reasons.of(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static Optional<Integer> port(Pod pod, String name) {
    return pod.getSpec().getContainers().stream()
        .flatMap(c -> c.getPorts() == null ? java.util.stream.Stream.<ContainerPort>empty()
            : c.getPorts().stream())
        .filter(p -> name.equals(p.getName())).map(ContainerPort::getContainerPort).findFirst();
  }

  private static int restarts(Pod pod, String container) {
    return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? 0
        : pod.getStatus().getContainerStatuses().stream()
            .filter(s -> container.equals(s.getName())).mapToInt(ContainerStatus::getRestartCount)
            .sum();
  }
}
