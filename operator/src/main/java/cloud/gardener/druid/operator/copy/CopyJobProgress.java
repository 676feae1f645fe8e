package cloud.gardener.druid.operator.copy;

import cloud.gardener.druid.api.CopyProgress;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far a copy Job is, from its newest pod: while the Job runs, what the copy serves on its
 * pod's progress port ({@link CopyProgress}); once it ended, the pod's termination message.
 * Nothing when the pod is not there or does not answer within {@link #TIMEOUT}. Reads pods
 * (list, already granted) and calls the pod: no further RBAC.
 */
final class CopyJobProgress {

  private static final Logger LOG = LoggerFactory.getLogger(CopyJobProgress.class);
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final KubernetesClient client;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  CopyJobProgress(KubernetesClient client) {
    this.client = client;
  }

  Optional<String> of(Job job) {
    String namespace = job.getMetadata().getNamespace();
    Optional<Pod> pod;
    try {
      pod = client.pods().inNamespace(namespace)
          .withLabel("job-name", job.getMetadata().getName()).list().getItems().stream()
          .max(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp(),
              Comparator.nullsFirst(Comparator.naturalOrder())));
    } catch (KubernetesClientException e) {
      LOG.debug("copy job {}/{}: pods not listed: {}", namespace, job.getMetadata().getName(),
          e.getMessage());
      return Optional.empty();
    }
    if (pod.isEmpty()) {
      return Optional.empty();
    }
    return CopyTaskStatus.ended(job) ? terminationMessage(pod.get()) : served(pod.get());
  }

  private Optional<String> served(Pod pod) {
    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || ip.isBlank() || !"Running".equals(pod.getStatus().getPhase())) {
      return Optional.empty();
    }
    String host = ip.contains(":") ? "[" + ip + "]" : ip;
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(
          URI.create("http://" + host + ":" + CopyProgress.PORT + CopyProgress.PATH))
          .timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 && !r.body().isBlank()
          ? Optional.of(r.body().strip()) : Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      LOG.debug("copy pod {}: no progress: {}", pod.getMetadata().getName(), e.toString());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static Optional<String> terminationMessage(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getContainerStatuses().stream()
        .map(ContainerStatus::getState).filter(Objects::nonNull)
        .map(s -> s.getTerminated()).filter(Objects::nonNull)
        .map(t -> t.getMessage()).filter(m -> m != null && !m.isBlank())
        .map(String::strip).findFirst();
  }
}
