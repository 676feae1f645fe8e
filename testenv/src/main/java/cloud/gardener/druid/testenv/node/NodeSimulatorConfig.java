package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.controlplane.Credentials;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Configuration of a {@link NodeSimulator}.
 *
 * @param nodeName      the Node object it registers and runs pods for
 * @param workDir       pods' directories, volumes and logs live under it
 * @param apiServerPort the local API server's port on 127.0.0.1, given to pods
 * @param runtimes      image → command line mappings, first match wins
 * @param hosts         where pod and service names are published for resolution
 * @param kubelet       what the kubelet API serves with and whom it trusts
 * @param volumeRefresh how long after a Secret or ConfigMap changed its mounted files change
 *                      (a kubelet: its sync period plus its cache's TTL, up to about 2 minutes)
 */
public record NodeSimulatorConfig(String nodeName, Path workDir, int apiServerPort,
    List<ImageRuntime> runtimes, HostsFile hosts, Credentials.Kubelet kubelet,
    Duration volumeRefresh) {

  public static final String DEFAULT_NODE_NAME = "druid-local-node";
  /** A kubelet's default sync period: the usual delay of a mounted Secret's update. */
  public static final Duration KUBELET_VOLUME_REFRESH = Duration.ofSeconds(60);
}
