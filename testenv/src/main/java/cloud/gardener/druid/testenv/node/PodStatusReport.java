package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.HostIP;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a pod's status as a kubelet reports it, keeping each condition's
 * lastTransitionTime stable while its status does not change.
 */
final class PodStatusReport {

  private final Map<String, PodCondition> conditions = new HashMap<>();
  private final String startTime = now();

  /** The inputs a status is computed from. */
  record Observation(String phase, String podIp, boolean initialized, boolean containersReady,
      List<ContainerStatus> containers, List<ContainerStatus> initContainers,
      String waitingMessage) {
  }

  PodStatus build(Observation o) {
    List<PodCondition> list = new ArrayList<>();
    list.add(condition("PodReadyToStartContainers", o.podIp() != null, null, null));
    list.add(condition("Initialized", o.initialized(), null, null));
    String notReadyReason = o.containersReady() ? null : "ContainersNotReady";
    list.add(condition("ContainersReady", o.containersReady(), notReadyReason, o.waitingMessage()));
    list.add(condition("Ready", o.containersReady(), notReadyReason, o.waitingMessage()));
    list.add(condition("PodScheduled", true, null, null));
    PodStatusBuilder status = new PodStatusBuilder()
        .withPhase(o.phase())
        .withConditions(list)
        .withHostIP("127.0.0.1")
        .withHostIPs(new HostIP("127.0.0.1"))
        .withStartTime(startTime)
        .withContainerStatuses(o.containers())
        .withInitContainerStatuses(o.initContainers().isEmpty() ? null : o.initContainers());
    if (o.podIp() != null) {
      status.withPodIP(o.podIp()).withPodIPs(new PodIP(o.podIp()));
    }
    return status.build();
  }

  private PodCondition condition(String type, boolean value, String reason, String message) {
    String status = value ? "True" : "False";
    PodCondition previous = conditions.get(type);
    String since = previous != null && previous.getStatus().equals(status)
        ? previous.getLastTransitionTime() : now();
    PodCondition condition = new PodConditionBuilder()
        .withType(type).withStatus(status)
        .withLastTransitionTime(since)
        .withReason(reason)
        .withMessage(value ? null : message)
        .build();
    conditions.put(type, condition);
    return condition;
  }

  static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
