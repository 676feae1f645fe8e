package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.agent.AgentReport;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import cloud.gardener.druid.operator.cache.ReadYourWrites;
import cloud.gardener.druid.operator.agent.AgentClient;
import cloud.gardener.druid.operator.agent.AgentEndpoint;
import cloud.gardener.druid.operator.model.EtcdDefaults;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.operator.model.EtcdNames;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import cloud.gardener.druid.api.verify.DrillReport;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Takes one {@link ClusterSnapshot} of an Etcd: its pods, PVCs and leases and each running
 * member's agent view (asked in parallel, {@link AgentStatuses}).
 *
 * <p>{@link #observe} reads the informer caches ({@link OwnedCaches}) once they show every
 * write the operator made for the Etcd ({@link ReadYourWrites}): it waits for that at most
 * {@link #CATCH_UP} and reads the API server when the wait runs out. {@link #observeFresh}
 * reads the API server (the observation after a step that wrote something) and records what
 * it saw, so the next cached observation does not act on a cache older than this one.
 */
public final class EtcdObserver {

  static final Duration CATCH_UP = Duration.ofSeconds(3);
  private static final long POLL_NANOS = Duration.ofMillis(20).toNanos();

  private final KubernetesClient client;
  private final AgentStatuses agentStatuses;
  private final Clock clock;
  private final VolumeTaskSource tasks;
  private final VolumeRecords records;
  private final OwnedCaches caches;
  private final ReadYourWrites expected;

  public EtcdObserver(KubernetesClient client, AgentClient agents, ExecutorService executor,
      Clock clock, VolumeTaskSource tasks, VolumeRecords records, OwnedCaches caches) {
    this.client = client;
    this.agentStatuses = new AgentStatuses(agents, executor, clock);
    this.clock = clock;
    this.tasks = tasks;
    this.records = records;
    this.caches = caches;
    this.expected = caches.expected();
  }

  /** From the caches once they show the operator's writes for the Etcd, else fresh. */
  public ClusterSnapshot observe(Etcd etcd) {
    if (!caches.ready() || !awaitCaughtUp(etcd)) {
      return observeFresh(etcd);
    }
    return snapshot(etcd, caches.ofEtcd(Pod.class, etcd),
        caches.ofEtcd(PersistentVolumeClaim.class, etcd), caches.ofEtcd(Lease.class, etcd),
        etcd, false);
  }

  /** Straight from the API server; what it sees becomes the least the caches must show. */
  public ClusterSnapshot observeFresh(Etcd etcd) {
    String ns = etcd.getMetadata().getNamespace();
    List<Pod> pods = client.pods().inNamespace(ns)
        .withLabels(EtcdLabels.memberSelector(etcd)).list().getItems();
    List<PersistentVolumeClaim> pvcs = client.persistentVolumeClaims().inNamespace(ns)
        .withLabels(EtcdLabels.volumeSelector(etcd)).list().getItems();
    List<Lease> leases = client.leases().inNamespace(ns)
        .withLabels(EtcdLabels.managed(etcd)).list().getItems();
    if (caches.ready()) {
      expected.readFresh(etcd, Pod.class, pods, members(caches.ofEtcd(Pod.class, etcd)));
      expected.readFresh(etcd, PersistentVolumeClaim.class, pvcs,
          volumes(caches.ofEtcd(PersistentVolumeClaim.class, etcd)));
      expected.readFresh(etcd, Lease.class, leases, caches.ofEtcd(Lease.class, etcd));
    }
    Etcd fresh = client.resources(Etcd.class).inNamespace(ns)
        .withName(etcd.getMetadata().getName()).get();
    return snapshot(etcd, pods, pvcs, leases, fresh == null ? etcd : fresh, true);
  }

  /** Forgets what was expected of the caches for a deleted Etcd. */
  public void forget(Etcd etcd) {
    expected.forget(etcd);
  }

  private boolean awaitCaughtUp(Etcd etcd) {
    Instant deadline = clock.instant().plus(CATCH_UP);
    while (!expected.caughtUp(etcd, caches)) {
      if (clock.instant().isAfter(deadline)) {
        return false;
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    return true;
  }

  private ClusterSnapshot snapshot(Etcd etcd, List<Pod> podList, List<PersistentVolumeClaim> pvcList,
      List<Lease> leaseList, Etcd recordedIn, boolean fresh) {
    EtcdNames names = EtcdNames.of(etcd);
    Map<Integer, Pod> pods = byOrdinal(members(podList));
    Map<Integer, PersistentVolumeClaim> pvcs = byOrdinal(volumes(pvcList));
    Map<String, Lease> leases = leaseList.stream()
        .collect(Collectors.toMap(l -> l.getMetadata().getName(), Function.identity(), (a, b) -> a));
    Map<Integer, CompletableFuture<AgentReport>> reports = askAgents(etcd, pods, fresh);

    int count = Math.max(EtcdDefaults.replicas(etcd), maxOrdinal(pods, pvcs) + 1);
    List<MemberObservation> members = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      CompletableFuture<AgentReport> asked = reports.get(i);
      AgentReport report = asked == null ? AgentReport.NONE : AgentStatuses.await(asked);
      members.add(new MemberObservation(i, names.member(i), Optional.ofNullable(pods.get(i)),
          Optional.ofNullable(pvcs.get(i)), report.view(), report.restoring(),
          report.initFailure(), report.corruption()));
    }
    agentStatuses.prune();
    return new ClusterSnapshot(etcd, List.copyOf(members),
        Optional.ofNullable(leases.get(names.fullSnapshotLease())),
        Optional.ofNullable(leases.get(names.deltaSnapshotLease())), clock.instant(),
        volumeView(etcd, recordedIn)).withVerificationLease(
            Optional.ofNullable(leases.get(DrillReport.leaseName(names.etcd()))));
  }

  /** The volume part: the recorded operation, the volume task, the class's expandability. */
  private VolumeView volumeView(Etcd etcd, Etcd recordedIn) {
    Optional<VolumeOperation> recorded = records.current(recordedIn);
    boolean expandable = caches.ready()
        ? StorageClassExpansion.allowsExpansion(caches, etcd.getSpec().getStorageClass())
        : StorageClassExpansion.allowsExpansion(client, etcd.getSpec().getStorageClass());
    return new VolumeView(expandable, recorded,
        caches.ready() && !caches.hasUnfinishedTask(etcd) ? Optional.empty()
            : tasks.inProgress(etcd));
  }

  private Map<Integer, CompletableFuture<AgentReport>> askAgents(Etcd etcd,
      Map<Integer, Pod> pods, boolean fresh) {
    int port = EtcdDefaults.agentPort(etcd);
    boolean tls = EtcdDefaults.agentTls(etcd);
    return pods.entrySet().stream()
        .filter(e -> e.getValue().getMetadata().getDeletionTimestamp() == null)
        .collect(Collectors.toMap(Map.Entry::getKey, e -> AgentEndpoint.of(e.getValue(), port, tls)
            .map(ep -> agentStatuses.ask(ep, fresh))
            .orElseGet(() -> CompletableFuture.completedFuture(AgentReport.NONE))));
  }

  private static List<Pod> members(List<Pod> pods) {
    return withComponent(pods, EtcdLabels.COMPONENT_MEMBER);
  }

  private static List<PersistentVolumeClaim> volumes(List<PersistentVolumeClaim> pvcs) {
    return withComponent(pvcs, EtcdLabels.COMPONENT_VOLUME);
  }

  private static <T extends HasMetadata> List<T> withComponent(List<T> items, String component) {
    return items.stream().filter(o -> o.getMetadata().getLabels() != null
        && component.equals(o.getMetadata().getLabels().get(Labels.COMPONENT))).toList();
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
