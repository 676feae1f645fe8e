package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a failed test shows: the Etcd status, member pods, events and container logs. */
final class Diagnostics {

  private Diagnostics() {
  }

  static String dump(KubernetesClient client, String etcdName, Path logsDir) {
    StringBuilder sb = new StringBuilder("\n--- diagnostics ---\n");
    Etcd etcd = client.resources(Etcd.class).withName(etcdName).get();
    sb.append("etcd status: ").append(etcd == null ? "gone" : Serialization.asYaml(etcd.getStatus()));
    client.pods().list().getItems().forEach(p -> sb.append("pod ").append(p.getMetadata().getName())
        .append(": ").append(Serialization.asJson(p.getStatus())).append('\n'));
    client.v1().events().list().getItems().stream().skip(Math.max(0,
        client.v1().events().list().getItems().size() - 40)).forEach(e -> sb.append("event ")
        .append(e.getInvolvedObject().getName()).append(' ').append(e.getReason()).append(": ")
        .append(e.getMessage()).append('\n'));
    try (var files = Files.list(logsDir)) {
      files.filter(f -> f.getFileName().toString().contains(etcdName)).forEach(f -> {
        try {
          var lines = Files.readAllLines(f);
          sb.append("log ").append(f.getFileName()).append(":\n");
          lines.subList(Math.max(0, lines.size() - 30), lines.size())
              .forEach(l -> sb.append("  ").append(l).append('\n'));
        } catch (java.io.IOException e) {
          sb.append("cannot read ").append(f).append('\n');
        }
      });
    } catch (java.io.IOException e) {
      sb.append("no logs in ").append(logsDir).append('\n');
    }
    return sb.toString();
  }
}
