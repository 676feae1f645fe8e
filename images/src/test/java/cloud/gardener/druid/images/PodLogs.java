package cloud.gardener.druid.images;

import cloud.gardener.druid.testenv.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The tails of a namespace's container logs, for failure messages. */
final class PodLogs {

  private PodLogs() {
  }

  static String tails(LocalCluster cluster, String namespace) {
    StringBuilder out = new StringBuilder();
    try (Stream<Path> logs = Files.list(cluster.workDir().resolve("logs"))) {
      for (Path log : logs.filter(p -> p.getFileName().toString().startsWith(namespace + "_"))
          .sorted().toList()) {
        List<String> lines = Files.readAllLines(log);
        out.append("\n--- ").append(log.getFileName()).append('\n');
        lines.subList(Math.max(0, lines.size() - 25), lines.size())
            .forEach(l -> out.append(l).append('\n'));
      }
    } catch (IOException e) {
      out.append("\n(cannot read logs: ").append(e).append(')');
    }
    return out.toString();
  }
}
