package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.condition;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.pods;
import static cloud.gardener.druid.operator.it.ItSupport.pvcs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.VolumeOperation;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Volume changes of running clusters (docs/volumes.md) on the real control plane with real etcd: grow
 * in place, replacement only after a confirmation of the current generation, member by member
 * under load with no failed request and no key lost, single-member replacement restoring from
 * the snapshot, and hibernation that deletes volumes and restores on waking up.
 */
@WithOperator
@ResourceLock(ItSupport.CLIENT_LOAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VolumeReplacementIT {

  static final Duration REPLACEMENT = Duration.ofMinutes(5);

  @BeforeAll
  static void createEtcds(TestNamespace ns, KubernetesClient client) throws Exception {
    createEtcdWithVolumes(client, ns, "vol3", 3, "expandable");
    createEtcdWithVolumes(client, ns, "vol1", 1, "standard");
    awaitRolloutComplete(client, "vol3");
    awaitRolloutComplete(client, "vol1");
  }

  @Test
  @Order(1)
  void growingOnAnExpandableClassPatchesTheClaimsAndReplacesNoMember(KubernetesClient client)
      throws Exception {
    Map<String, String> uids = pvcUids(client, "vol3");
    put(client, "vol3", "/grow/", 50);
    EtcdEdits.edit(client, "vol3", e -> e.getSpec().setStorageCapacity(new Quantity("3Gi")));
    awaitComplete(client, "vol3");

    assertThat(pvcs(client, "vol3")).hasSize(3).allSatisfy(p -> {
      assertThat(p.getSpec().getResources().getRequests().get("storage")).isEqualTo(new Quantity("3Gi"));
      assertThat(p.getStatus().getCapacity().get("storage")).isEqualTo(new Quantity("3Gi"));
    });
    assertThat(pvcUids(client, "vol3")).as("the same claims, grown").isEqualTo(uids);
    assertThat(condition(client, "vol3", ConditionTypes.VOLUMES_UP_TO_DATE).getStatus())
        .isEqualTo(ConditionTypes.TRUE);
    assertKeys(client, "vol3", "/grow/", 50);
  }

  @Test
  @Order(2)
  void classChangeOfThreeMembersWaitsForConfirmationThenReplacesOneAtATimeUnderLoad(
      KubernetesClient client) throws Exception {
    put(client, "vol3", "/before/", 200);
    Map<String, String> uids = pvcUids(client, "vol3");
    Etcd before = etcd(client, "vol3");
    try (MemberWatch members = MemberWatch.start(client, "vol3");
        StatusWatch statuses = StatusWatch.start(client, "vol3");
        LoadClient load = new LoadClient(members::readyEndpoints, "/during",
            Duration.ofMinutes(8))) {
      Etcd changed = EtcdEdits.edit(client, "vol3", e -> e.getSpec().setStorageClass("encrypted"));
      long generation = changed.getMetadata().getGeneration();

      await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() ->
          "AwaitingConfirmation".equals(condition(client, "vol3",
              ConditionTypes.VOLUMES_UP_TO_DATE).getReason()));
      assertThat(condition(client, "vol3", ConditionTypes.VOLUMES_UP_TO_DATE).getMessage())
          .contains("storage class expandable -> encrypted", "kubectl", "annotate");
      // the event is recorded after the status is written, not with it
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
          assertThat(client.v1().events().list().getItems())
              .anyMatch(e -> "VolumeReplacementPending".equals(e.getReason())
                  && "vol3".equals(e.getInvolvedObject().getName())));

      annotateConfirmation(client, "vol3", generation - 1);
      await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).until(() ->
          pvcUids(client, "vol3").equals(uids)
              && etcd(client, "vol3").getStatus().getVolumeOperation() == null);

      annotateConfirmation(client, "vol3", generation);
      awaitComplete(client, "vol3");
      load.stop();

      assertThat(pvcs(client, "vol3")).hasSize(3)
          .allSatisfy(p -> assertThat(p.getSpec().getStorageClassName()).isEqualTo("encrypted"))
          .noneMatch(p -> uids.containsValue(p.getMetadata().getUid()));
      VolumeOperation op = etcd(client, "vol3").getStatus().getVolumeOperation();
      assertThat(op.getPhase()).isEqualTo(VolumeOperation.PHASE_COMPLETED);
      assertThat(op.getSnapshotRevision()).as("full snapshot before the first deletion").isPositive();
      assertThat(op.getCompletedMembers()).hasSize(3);
      assertThat(members.minReady()).as("ready members at any time").isGreaterThanOrEqualTo(2);
      assertThat(statuses.earlyCompletions(generation)).as("complete while volumes were pending")
          .isEmpty();
      assertThat(load.failures()).as("slowest request " + load.slowestMillis()
          + " ms; failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      assertThat(load.requests()).isGreaterThan(10);
      assertKeys(client, "vol3", "/before/", 200);
      try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, before))) {
        for (long i = 0; i < load.written(); i += Math.max(1, load.written() / 50)) {
          assertThat(EtcdClients.get(etcdClient.getKVClient(), "/during/" + i)).isEqualTo("v" + i);
        }
        assertThat(etcdClient.getClusterClient().listMember().get().getMembers())
            .hasSize(3).noneMatch(m -> m.isLearner());
      }
    }
  }

  @Test
  @Order(3)
  void aSingleMemberWithoutConfirmationKeepsItsVolumeAndAShrinkIsAReplacement(
      KubernetesClient client) {
    EtcdEdits.edit(client, "vol1", e -> e.getSpec().setStorageCapacity(new Quantity("1Gi")));
    await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() ->
        "AwaitingConfirmation".equals(condition(client, "vol1",
            ConditionTypes.VOLUMES_UP_TO_DATE).getReason()));
    assertThat(condition(client, "vol1", ConditionTypes.VOLUMES_UP_TO_DATE).getMessage())
        .contains("(shrink)", "full snapshot");
    assertThat(RolloutCompletion.isComplete(etcd(client, "vol1"))).isFalse();
  }

  @Test
  @Order(4)
  void singleMemberClassChangeSnapshotsFirstAndRestoresEveryKeyOnTheNewVolume(
      KubernetesClient client) throws Exception {
    long lastRevision = put(client, "vol1", "/single/", 300);
    Map<String, String> uids = pvcUids(client, "vol1");
    Etcd changed = EtcdEdits.edit(client, "vol1", e -> {
      e.getSpec().setStorageClass("encrypted");
      e.getSpec().setStorageCapacity(new Quantity("2Gi"));
    });
    annotateConfirmation(client, "vol1", changed.getMetadata().getGeneration());
    awaitComplete(client, "vol1");

    assertThat(pvcs(client, "vol1")).singleElement().satisfies(p -> {
      assertThat(p.getSpec().getStorageClassName()).isEqualTo("encrypted");
      assertThat(uids).doesNotContainValue(p.getMetadata().getUid());
    });
    VolumeOperation op = etcd(client, "vol1").getStatus().getVolumeOperation();
    assertThat(op.getSnapshotRevision()).as("the snapshot holds the last write")
        .isGreaterThanOrEqualTo(lastRevision);
    assertKeys(client, "vol1", "/single/", 300);
  }

  @Test
  @Order(5)
  void hibernationWithDeleteVolumesFreesTheVolumesAndWakingUpRestoresEveryKey(
      KubernetesClient client) throws Exception {
    put(client, "vol3", "/hibernate/", 100);
    EtcdEdits.edit(client, "vol3", e -> {
      e.getSpec().getHibernation().setDeleteVolumes(true);
      e.getSpec().setReplicas(0);
    });
    await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() ->
        pods(client, "vol3").isEmpty() && pvcs(client, "vol3").isEmpty());
    VolumeOperation hibernated = etcd(client, "vol3").getStatus().getVolumeOperation();
    assertThat(hibernated.getType()).isEqualTo(VolumeOperation.TYPE_HIBERNATE_DELETE_VOLUMES);
    assertThat(hibernated.getSnapshotRevision()).isPositive();

    EtcdEdits.edit(client, "vol3", e -> e.getSpec().setReplicas(3));
    awaitComplete(client, "vol3");
    assertThat(etcd(client, "vol3").getStatus().getVolumeOperation().getPhase())
        .isEqualTo(VolumeOperation.PHASE_COMPLETED);
    assertKeys(client, "vol3", "/hibernate/", 100);
    assertKeys(client, "vol3", "/before/", 200);
    assertThat(pods(client, "vol3")).hasSize(3).allSatisfy(p -> assertThat(
        p.getSpec().getContainers().get(0).getArgs()).as("member started alone was restarted"
            + " with the cluster's size").contains("--replicas=3"));
    try (Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd(client, "vol3")))) {
      assertThat(etcdClient.getClusterClient().listMember().get().getMembers())
          .hasSize(3).noneMatch(m -> m.isLearner());
    }
  }

  // ---------------------------------------------------------------- helpers

  private static void awaitComplete(KubernetesClient client, String name) {
    awaitRolloutComplete(client, name, REPLACEMENT);
  }

  private static void annotateConfirmation(KubernetesClient client, String name, long generation) {
    EtcdEdits.edit(client, name, e -> {
      Map<String, String> a = new HashMap<>(Optional.ofNullable(e.getMetadata().getAnnotations())
          .orElse(Map.of()));
      a.put(Annotations.CONFIRM_VOLUME_REPLACEMENT, Long.toString(generation));
      e.getMetadata().setAnnotations(a);
    });
  }

  /** Writes {@code count} keys; returns the revision of the last write. */
  private static long put(KubernetesClient client, String name, String prefix, int count)
      throws Exception {
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, etcd(client, name)))) {
      for (int i = 0; i < count; i++) {
        EtcdClients.put(c.getKVClient(), prefix + i, "v" + i);
      }
      return c.getKVClient().get(EtcdClients.bytes(prefix + (count - 1))).get()
          .getHeader().getRevision();
    }
  }

  private static void assertKeys(KubernetesClient client, String name, String prefix, int count)
      throws Exception {
    try (Client c = EtcdClients.connect(EtcdClients.endpoints(client, etcd(client, name)))) {
      for (int i = 0; i < count; i++) {
        assertThat(EtcdClients.get(c.getKVClient(), prefix + i)).as(prefix + i).isEqualTo("v" + i);
      }
    }
  }

  static Map<String, String> pvcUids(KubernetesClient client, String name) {
    Map<String, String> uids = new HashMap<>();
    pvcs(client, name).forEach(p -> uids.put(p.getMetadata().getName(), p.getMetadata().getUid()));
    return uids;
  }

  /** Every status version of an Etcd: those that claim completion while volumes are pending. */
  static final class StatusWatch implements AutoCloseable {
    private final ConcurrentLinkedQueue<String> early = new ConcurrentLinkedQueue<>();
    private final Map<Long, Boolean> seen = new ConcurrentHashMap<>();
    private Watch watch;

    static StatusWatch start(KubernetesClient client, String name) {
      StatusWatch w = new StatusWatch();
      w.watch = client.resources(Etcd.class).withName(name).watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, Etcd etcd) {
          if (etcd.getStatus() == null || !RolloutCompletion.isComplete(etcd)) {
            return;
          }
          VolumeOperation op = etcd.getStatus().getVolumeOperation();
          boolean opRunning = op != null && !op.isFinished();
          boolean volumesPending = Condition.find(etcd.getStatus().getConditions(),
              ConditionTypes.VOLUMES_UP_TO_DATE)
              .filter(c -> !ConditionTypes.TRUE.equals(c.getStatus())).isPresent();
          if (opRunning || volumesPending) {
            w.early.add("generation " + etcd.getMetadata().getGeneration() + " at "
                + etcd.getMetadata().getResourceVersion() + ": operation "
                + (op == null ? null : op.getPhase()) + ", volumes pending " + volumesPending);
          }
          w.seen.put(etcd.getMetadata().getGeneration(), true);
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      });
      return w;
    }

    List<String> earlyCompletions(long generation) {
      return List.copyOf(early);
    }

    @Override
    public void close() {
      watch.close();
    }
  }
}
