package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.testenv.LocalCluster;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a failed IT shows about its namespace: the status of every Etcd and EtcdOpsTask, the
 * pods, the last events and the end of every container log. {@link OperatorExtension} attaches
 * it to the failure as a suppressed exception.
 */
final class Diagnostics extends Exception {

  private static final int EVENTS = 40;
  private static final int LOG_LINES = 30;

  private Diagnostics(String text) {
    super(text, null, false, false);
  }

  static Diagnostics of(LocalCluster cluster, String namespace) {
    StringBuilder sb = new StringBuilder("diagnostics of namespace ").append(namespace)
        .append('\n');
    try (KubernetesClient client = cluster.newClient(namespace)) {
      client.resources(Etcd.class).list().getItems().forEach(e -> sb.append("Etcd ")
          .append(e.getMetadata().getName()).append(" status:\n")
          .append(Serialization.asYaml(e.getStatus())));
      client.resources(EtcdOpsTask.class).list().getItems().forEach(t -> sb
          .append("EtcdOpsTask ").append(t.getMetadata().getName()).append(" status:\n")
          .append(Serialization.asYaml(t.getStatus())));
      client.pods().list().getItems().forEach(p -> sb.append("pod ")
          .append(p.getMetadata().getName()).append(": ")
          .append(Serialization.asJson(p.getStatus())).append('\n'));
      List<Event> events = client.v1().events().list().getItems();
      events.stream().skip(Math.max(0, events.size() - EVENTS)).forEach(e -> sb.append("event ")
          .append(e.getInvolvedObject().getKind()).append(' ')
          .append(e.getInvolvedObject().getName()).append(' ').append(e.getReason())
          .append(": ").append(e.getMessage()).append('\n'));
    }
    appendLogs(sb, cluster.workDir().resolve("logs"), namespace + "_");
    return new Diagnostics(sb.toString());
  }

  /** The last lines of the container logs of the namespace's pods. */
  private static void appendLogs(StringBuilder sb, Path logsDir, String prefix) {
    try (Stream<Path> files = Files.list(logsDir)) {
      files.filter(f -> f.getFileName().toString().startsWith(prefix))
          .sorted(Comparator.naturalOrder()).forEach(f -> {
            try {
              List<String> lines = Files.readAllLines(f);
              sb.append("log ").append(f.getFileName()).append(":\n");
              lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size())
                  .forEach(l -> sb.append("  ").append(l).append('\n'));
            } catch (IOException e) {
              sb.append("cannot read ").append(f).append('\n');
            }
          });
    } catch (IOException e) {
      sb.append("no logs in ").append(logsDir).append('\n');
    }
  }
}
