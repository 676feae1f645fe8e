package cloud.gardener.druid.cli.report;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code kubectl druid report}: one archive with what a person helping with an Etcd asks for
 * first (docs/cli.md): the Etcd and its status as {@code status} prints it, its tasks, every
 * object the operator manages for it, their events, the logs of its pods, what each member's
 * agent answers (metrics, health, member status), and the operator's logs and metrics. Secret
 * values never enter the archive.
 */
public final class SupportReport {

  /** The labels of the operator's pods, as the chart sets them. */
  static final Map<String, String> OPERATOR_LABELS = Map.of(
      "app.kubernetes.io/component", "operator", "app.kubernetes.io/part-of", "etcd-druid");

  /** What was written: the number of files and what could not be collected. */
  public record Written(int files, List<String> missing) {
  }

  private SupportReport() {
  }

  /**
   * Writes the archive; {@code operatorNamespace} null looks for the operator in every
   * namespace.
   */
  public static Written write(KubernetesClient client, Etcd etcd, String statusText,
      String operatorNamespace, Path file) throws IOException {
    String heading = "Support bundle of Etcd " + etcd.getMetadata().getNamespace() + "/"
        + etcd.getMetadata().getName() + " (kubectl druid report).";
    SupportBundle bundle = new SupportBundle(file, heading);
    try (bundle) {
      bundle.add("status.txt", statusText);
      List<Pod> pods = new ClusterObjects(client, etcd, bundle).write();
      PodFiles files = new PodFiles(client, bundle);
      for (Pod pod : pods) {
        files.logs("logs", pod);
        if (pod.getSpec().getContainers().stream().anyMatch(c -> c.getPorts() != null
            && c.getPorts().stream().anyMatch(p -> PodFiles.AGENT_PORT.equals(p.getName())))) {
          files.agent(pod);
        }
      }
      for (Pod operator : operatorPods(client, operatorNamespace, bundle)) {
        files.logs("operator", operator);
        files.operatorMetrics(operator);
      }
    }
    return new Written(bundle.entries(), bundle.missing());
  }

  private static List<Pod> operatorPods(KubernetesClient client, String namespace,
      SupportBundle bundle) {
    try {
      var pods = namespace == null ? client.pods().inAnyNamespace()
          : client.pods().inNamespace(namespace);
      List<Pod> found = pods.withLabels(OPERATOR_LABELS).list().getItems();
      if (found.isEmpty()) {
        bundle.missing("operator/", "no pod labelled " + OPERATOR_LABELS
            + (namespace == null ? "" : " in namespace " + namespace)
            + " (an operator running outside the cluster logs where it runs)");
      }
      return found;
    } catch (KubernetesClientException e) {
      bundle.missing("operator/", "listing the operator's pods failed: " + Reasons.of(e)
          + " (--operator-namespace names where it runs)");
      return List.of();
    }
  }
}
