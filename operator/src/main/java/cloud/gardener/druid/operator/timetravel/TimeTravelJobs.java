package cloud.gardener.druid.operator.timetravel;

import cloud.gardener.druid.api.pitr.TimeTravelReport;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder;
import cloud.gardener.druid.operator.model.TimeTravelJobBuilder.Kind;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The time travel Jobs of an Etcd (addition): at most one of each kind at a time (tasks of one
 * Etcd run one at a time); a finished Job stays until the next replaces it, so its pod's log
 * lists every key acted on. The report is the pod's termination message, else the last JSON
 * line of its log (a kubelet without termination messages).
 */
public final class TimeTravelJobs {

  /** A Job's state. */
  public sealed interface State {
    /** No Job, or an old one being deleted: start again. */
    record Absent() implements State {
    }

    record Running() implements State {
    }

    /** Ended; the report when one could be read. */
    record Finished(Optional<TimeTravelReport> report, boolean succeeded) implements State {
    }
  }

  private final KubernetesClient client;

  public TimeTravelJobs(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Creates {@code job} unless a Job of that name exists; a finished one (of an earlier task)
   * is deleted first (true once the new one was created).
   */
  public boolean start(Job job) {
    String ns = job.getMetadata().getNamespace();
    Job existing = client.batch().v1().jobs().inNamespace(ns)
        .withName(job.getMetadata().getName()).get();
    if (existing != null) {
      client.batch().v1().jobs().inNamespace(ns).withName(job.getMetadata().getName())
          .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
      return false;
    }
    try {
      client.resource(job).create();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
  }

  public State state(Etcd etcd, Kind kind) {
    String ns = etcd.getMetadata().getNamespace();
    String name = TimeTravelJobBuilder.jobName(etcd, kind);
    Job job = client.batch().v1().jobs().inNamespace(ns).withName(name).get();
    if (job == null || job.getMetadata().getDeletionTimestamp() != null) {
      return new State.Absent();
    }
    JobStatus s = job.getStatus();
    boolean succeeded = s != null && s.getSucceeded() != null && s.getSucceeded() > 0;
    boolean failed = s != null && s.getFailed() != null && s.getFailed() > 0;
    if (!succeeded && !failed) {
      return new State.Running();
    }
    return new State.Finished(report(ns, name), succeeded);
  }

  private Optional<TimeTravelReport> report(String ns, String job) {
    List<Pod> pods = client.pods().inNamespace(ns).withLabel("job-name", job).list().getItems();
    for (Pod pod : pods) {
      Optional<TimeTravelReport> said = terminationMessage(pod).flatMap(TimeTravelJobs::parse);
      if (said.isEmpty()) {
        said = lastJsonLine(ns, pod);
      }
      if (said.isPresent()) {
        return said;
      }
    }
    return Optional.empty();
  }

  private Optional<TimeTravelReport> lastJsonLine(String ns, Pod pod) {
    try {
      String log = client.pods().inNamespace(ns).withName(pod.getMetadata().getName())
          .inContainer(TimeTravelJobBuilder.CONTAINER).tailingLines(20).getLog();
      List<String> lines = log == null ? List.of() : log.lines().toList();
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (lines.get(i).startsWith("{")) {
          return parse(lines.get(i));
        }
      }
    } catch (KubernetesClientException e) {
      return Optional.empty();
    }
    return Optional.empty();
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

  private static Optional<TimeTravelReport> parse(String json) {
    try {
      return Optional.of(TimeTravelReport.parse(json));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
