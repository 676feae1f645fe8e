package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.agent.etcd.EtcdClients;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdLabels;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.maintenance.StatusResponse;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The member pods of the chaos run's Etcd as the API server and etcd itself show them now: their
 * order (by name), client endpoints, agent pids (the container's main process, as the node
 * simulator reports it in the container ID) and etcd's own view through each member.
 */
final class ChaosMembers implements AutoCloseable {

  private static final String CONTAINER_ID_PREFIX = "druid-local://";
  private static final long STATUS_TIMEOUT_MILLIS = 2000;

  /** What etcd answered through one member: its ID, the leader it follows, its cluster. */
  record EtcdView(long memberId, long leader, long clusterId, long raftIndex) {
  }

  private final KubernetesClient client;
  private final Etcd etcd;
  private final Map<String, Client> perMember = new ConcurrentHashMap<>();

  ChaosMembers(KubernetesClient client, Etcd etcd) {
    this.client = client;
    this.etcd = etcd;
  }

  List<Pod> pods() {
    return client.pods().inNamespace(etcd.getMetadata().getNamespace())
        .withLabels(EtcdLabels.memberSelector(etcd)).list().getItems().stream()
        .sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList();
  }

  /** Member {@code index}'s pod. */
  Pod pod(int index) {
    List<Pod> pods = pods();
    if (index >= pods.size()) {
      throw new IllegalStateException("no member " + index + " among " + pods.size() + " pods");
    }
    return pods.get(index);
  }

  /** The pid of the pod's running main container (the agent); empty while it is not running. */
  static Optional<Long> agentPid(Pod pod) {
    return Optional.ofNullable(pod.getStatus()).map(s -> s.getContainerStatuses())
        .flatMap(statuses -> statuses.stream().filter(c -> c.getState() != null
            && c.getState().getRunning() != null).findFirst())
        .map(ContainerStatus::getContainerID)
        .filter(id -> id != null && id.startsWith(CONTAINER_ID_PREFIX))
        .map(id -> Long.parseLong(id.substring(CONTAINER_ID_PREFIX.length())));
  }

  static boolean ready(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() == null && pod.getStatus() != null
        && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  static URI endpoint(Pod pod) {
    return URI.create("http://" + pod.getStatus().getPodIP() + ":2379");
  }

  /** etcd's answer through {@code pod}'s member; empty when it does not answer in time. */
  Optional<EtcdView> view(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getPodIP() == null) {
      return Optional.empty();
    }
    URI endpoint = endpoint(pod);
    Client c = perMember.computeIfAbsent(endpoint.toString(),
        e -> EtcdClients.connect(List.of(endpoint), Optional.empty()));
    try {
      StatusResponse s = c.getMaintenanceClient().statusMember(endpoint.toString())
          .get(STATUS_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
      return Optional.of(new EtcdView(s.getHeader().getMemberId(), s.getLeader(),
          s.getHeader().getClusterId(), s.getRaftIndex()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (Exception notAnswering) {
      return Optional.empty();
    }
  }

  /** The member list as {@code pod}'s member answers it: {members, learners}; empty if none. */
  Optional<int[]> memberList(Pod pod) {
    Client c = perMember.get(endpoint(pod).toString());
    if (c == null) {
      return Optional.empty();
    }
    try {
      var members = c.getClusterClient().listMember().get(STATUS_TIMEOUT_MILLIS,
          TimeUnit.MILLISECONDS).getMembers();
      return Optional.of(new int[] {members.size(),
          (int) members.stream().filter(m -> m.isLearner()).count()});
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (Exception notAnswering) {
      return Optional.empty();
    }
  }

  /** The index of the member that leads now, by etcd's own answers. */
  int leader() {
    List<Pod> pods = pods();
    for (int i = 0; i < pods.size(); i++) {
      Optional<EtcdView> v = view(pods.get(i));
      if (v.isPresent() && v.get().leader() == v.get().memberId()) {
        return i;
      }
    }
    throw new IllegalStateException("no member says it leads");
  }

  @Override
  public void close() {
    perMember.values().forEach(Client::close);
  }
}
