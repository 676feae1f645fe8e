package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Registers the simulated Node and keeps it Ready: its Lease every 10 s, its status every 30 s. */
final class NodeRegistration implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(NodeRegistration.class);

  /** The node's address: its InternalIP, where the kubelet API listens. */
  static final String ADDRESS = "127.0.0.1";

  private final KubernetesClient client;
  private final String nodeName;
  private final int kubeletPort;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "node-heartbeat");
    t.setDaemon(true);
    return t;
  });

  private NodeRegistration(KubernetesClient client, String nodeName, int kubeletPort) {
    this.client = client;
    this.nodeName = nodeName;
    this.kubeletPort = kubeletPort;
  }

  static NodeRegistration start(KubernetesClient client, String nodeName, int kubeletPort) {
    NodeRegistration registration = new NodeRegistration(client, nodeName, kubeletPort);
    registration.register();
    registration.timer.scheduleWithFixedDelay(registration::renewLease, 0, 10, TimeUnit.SECONDS);
    registration.timer.scheduleWithFixedDelay(registration::reportStatus, 30, 30, TimeUnit.SECONDS);
    return registration;
  }

  private void register() {
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity("2"),
        "memory", new Quantity("24Gi"), "pods", new Quantity("250"),
        "ephemeral-storage", new Quantity("100Gi"));
    Node node = new NodeBuilder()
        .withNewMetadata().withName(nodeName)
        .addToLabels("kubernetes.io/hostname", nodeName)
        .addToLabels("kubernetes.io/os", "linux")
        .addToLabels("kubernetes.io/arch", "amd64")
        .addToLabels("node.druid.local/simulated", "true")
        .endMetadata()
        .build();
    client.nodes().resource(node).serverSideApply();
    client.nodes().withName(nodeName).editStatus(n -> {
      n.getStatus().setCapacity(capacity);
      n.getStatus().setAllocatable(capacity);
      n.getStatus().setAddresses(List.of(
          new io.fabric8.kubernetes.api.model.NodeAddress(ADDRESS, "InternalIP"),
          new io.fabric8.kubernetes.api.model.NodeAddress(nodeName, "Hostname")));
      n.getStatus().setConditions(conditions());
      n.getStatus().setDaemonEndpoints(new io.fabric8.kubernetes.api.model.NodeDaemonEndpointsBuilder()
          .withNewKubeletEndpoint().withPort(kubeletPort).endKubeletEndpoint().build());
      n.getStatus().setNodeInfo(new io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder()
          .withKubeletVersion("v1.36.3-druid-local").withOperatingSystem("linux")
          .withArchitecture("amd64").withContainerRuntimeVersion("druid-local://1")
          .withKernelVersion("").withOsImage("druid node simulator").withMachineID(nodeName)
          .withSystemUUID(nodeName).withBootID(nodeName).withKubeProxyVersion("")
          .build());
      return n;
    });
    // no node-lifecycle controller runs to lift the taint the API server puts on new nodes
    client.nodes().withName(nodeName).edit(n -> {
      n.getSpec().setTaints(List.of());
      return n;
    });
  }

  private void reportStatus() {
    try {
      client.nodes().withName(nodeName).editStatus(n -> {
        n.getStatus().setConditions(conditions());
        return n;
      });
    } catch (KubernetesClientException e) {
      LOG.debug("node status not reported: {}", e.getMessage());
    }
  }

  private static List<NodeCondition> conditions() {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    return List.of(
        condition("Ready", "True", "KubeletReady", "node simulator is posting ready status", now),
        condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "", now),
        condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "", now),
        condition("PIDPressure", "False", "KubeletHasSufficientPID", "", now));
  }

  private static NodeCondition condition(String type, String status, String reason,
      String message, String now) {
    return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason)
        .withMessage(message).withLastHeartbeatTime(now).withLastTransitionTime(now).build();
  }

  private void renewLease() {
    try {
      ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
      Lease lease = new LeaseBuilder()
          .withNewMetadata().withName(nodeName).withNamespace("kube-node-lease").endMetadata()
          .withNewSpec().withHolderIdentity(nodeName).withLeaseDurationSeconds(40)
          .withRenewTime(now).endSpec()
          .build();
      client.leases().inNamespace("kube-node-lease").resource(lease).serverSideApply();
    } catch (KubernetesClientException e) {
      LOG.debug("node lease not renewed: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
