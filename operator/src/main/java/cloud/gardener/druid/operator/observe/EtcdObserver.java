package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.volume.StorageClasses;
import cloud.gardener.druid.operator.volume.VolumeTaskSource;
import cloud.gardener.druid.operator.volume.VolumeView;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.operator.model.EtcdNames;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Takes one {@link ClusterSnapshot} of an Etcd: lists its pods, PVCs and leases straight from
 * the API server (never an informer cache, so the snapshot is at least as new as every write
 * made before it) and asks each running member's agent for its view, in parallel.
 */
public final class EtcdObserver {

  private final KubernetesClient client;
  private final AgentClient agents;
  private final ExecutorService executor;
  private final Clock clock;
  private final VolumeTaskSource tasks;

  public EtcdObserver(KubernetesClient client, AgentClient agents, ExecutorService executor,
      Clock clock, VolumeTaskSource tasks) {
    this.client = client;
    this.agents = agents;
    this.executor = executor;
    this.clock = clock;
    this.tasks = tasks;
  }

  public ClusterSnapshot observe(Etcd etcd) {
    String ns = etcd.getMetadata().getNamespace();
    EtcdNames names = EtcdNames.of(etcd);
    Map<Integer, Pod> pods = byOrdinal(client.pods().inNamespace(ns)
        .withLabels(EtcdLabels.memberSelector(etcd)).list().getItems());
    Map<Integer, PersistentVolumeClaim> pvcs = byOrdinal(client.persistentVolumeClaims()
        .inNamespace(ns).withLabels(EtcdLabels.volumeSelector(etcd)).list().getItems());
    Map<String, Lease> leases = client.leases().inNamespace(ns)
        .withLabels(EtcdLabels.managed(etcd)).list().getItems().stream()
        .collect(Collectors.toMap(l -> l.getMetadata().getName(), Function.identity()));
    Map<Integer, CompletableFuture<Optional<AgentView>>> views = askAgents(etcd, pods);

    int count = Math.max(EtcdDefaults.replicas(etcd), maxOrdinal(pods, pvcs) + 1);
    List<MemberObservation> members = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      CompletableFuture<Optional<AgentView>> view = views.get(i);
      members.add(new MemberObservation(i, names.member(i), Optional.ofNullable(pods.get(i)),
          Optional.ofNullable(pvcs.get(i)), view == null ? Optional.empty() : view.join(),
          Optional.ofNullable(leases.get(names.memberLease(i)))));
    }
    return new ClusterSnapshot(etcd, List.copyOf(members),
        Optional.ofNullable(leases.get(names.fullSnapshotLease())),
        Optional.ofNullable(leases.get(names.deltaSnapshotLease())), clock.instant(),
        volumes(etcd));
  }

  /**
   * The volume part of the observation. The recorded volume operation is read from the API
   * server, not from the Etcd the reconcile started with: an informer may not have seen the
   * last record yet, and a flow must never act on an older record than the newest.
   */
  private VolumeView volumes(Etcd etcd) {
    Etcd fresh = client.resources(Etcd.class).inNamespace(etcd.getMetadata().getNamespace())
        .withName(etcd.getMetadata().getName()).get();
    Optional<VolumeOperation> recorded = Optional.ofNullable(fresh == null ? etcd : fresh)
        .map(Etcd::getStatus).map(EtcdStatus::getVolumeOperation);
    boolean expandable = StorageClasses.allowsExpansion(client, etcd.getSpec().getStorageClass());
    return new VolumeView(expandable, recorded, tasks.inProgress(etcd));
  }

  private Map<Integer, CompletableFuture<Optional<AgentView>>> askAgents(Etcd etcd,
      Map<Integer, Pod> pods) {
    int port = EtcdDefaults.agentPort(etcd);
    boolean tls = EtcdDefaults.agentTls(etcd);
    return pods.entrySet().stream()
        .filter(e -> e.getValue().getMetadata().getDeletionTimestamp() == null)
        .collect(Collectors.toMap(Map.Entry::getKey, e -> AgentEndpoint.of(e.getValue(), port, tls)
            .map(ep -> CompletableFuture.supplyAsync(() -> agents.status(ep), executor))
            .orElseGet(() -> CompletableFuture.completedFuture(Optional.empty()))));
  }

  private static <T extends HasMetadata> Map<Integer, T> byOrdinal(List<T> items) {
    return items.stream()
        .filter(o -> o.getMetadata().getLabels() != null
            && o.getMetadata().getLabels().containsKey(Labels.MEMBER_ORDINAL))
        .collect(Collectors.toMap(
            o -> Integer.parseInt(o.getMetadata().getLabels().get(Labels.MEMBER_ORDINAL)),
            Function.identity(), (a, b) -> a));
  }

  private static int maxOrdinal(Map<Integer, ?> a, Map<Integer, ?> b) {
    return Math.max(a.keySet().stream().mapToInt(i -> i).max().orElse(-1),
        b.keySet().stream().mapToInt(i -> i).max().orElse(-1));
  }
}
