package cloud.gardener.druid.agent.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command lines of agents on loopback addresses for tests. */
public final class AgentArgs {

  /** Plain HTTP to every caller; {@code TlsAgentIT} replaces it by the agent's TLS. */
  public static final String INSECURE_API = "--insecure-api";

  private AgentArgs() {
  }

  public static List<String> member(String name, String host, int clientPort, int peerPort,
      int serverPort, String initialCluster, Path dataDir) {
    return new ArrayList<>(List.of(
        "--name=" + name, "--etcd-name=etcd-test", "--namespace=default",
        "--pod-ip=" + host, "--advertise-host=" + host,
        "--client-port=" + clientPort, "--peer-port=" + peerPort,
        "--server-port=" + serverPort,
        "--initial-cluster=" + initialCluster,
        "--data-dir=" + dataDir,
        "--etcd-bin-dir=" + EtcdBinaries.dir(),
        "--quota-backend-bytes=8Gi",
        "--init-retry-period=1s",
        "--leases=false", INSECURE_API));
  }

  public static List<String> localStore(Path root) {
    return List.of("--store-provider=Local", "--store-container=" + root,
        "--store-prefix=default--etcd-test",
        "--full-snapshot-schedule=0 0 1 1 *",
        "--delta-snapshot-period=1s");
  }
}
