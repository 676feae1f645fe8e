package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.process.ProcessLedger;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What every pod worker of a node simulator shares. */
record NodeContext(KubernetesClient client, String nodeName, Path workDir, int apiServerPort,
    List<ImageRuntime> runtimes, PodAddresses addresses, ProcessLedger ledger,
    Runnable onPodChange, ContainerLogs logs, Duration volumeRefresh) {

  Optional<ImageRuntime> runtimeFor(String image) {
    return runtimes.stream().filter(r -> r.handles(image)).findFirst();
  }

  Path logsDir() {
    return workDir.resolve("logs");
  }
}
