package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.events;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.Finalizers;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig.SnapshotType;
import cloud.gardener.druid.api.v1alpha1.ReplaceMemberVolumeConfig;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * EtcdOpsTasks against real members: on-demand full and delta snapshots land in the Local
 * store, defragmentation goes member by member while a client keeps writing, invalid tasks
 * are rejected with errors naming the field, finished tasks go away after their TTL.
 */
@WithOperator
@ResourceLock(ItSupport.CLIENT_LOAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdOpsTaskIT {

  static final Pattern SNAPSHOT = Pattern.compile("(Full|Incr)-(\\d+)-(\\d+)-.*");

  static OperatorHarness harness;
  static Etcd single;
  static Etcd trio;
  static final Map<String, Client> clients = new ConcurrentHashMap<>();

  @BeforeAll
  static void createEtcds(TestNamespace ns, KubernetesClient client, OperatorHarness operator)
      throws Exception {
    harness = operator;
    single = load("etcd-1-local.yaml", ns.name());
    single.getMetadata().setName("snap");
    single.getSpec().getBackup().getStore().setPrefix(ns.name() + "/snap");
    // no scheduled delta gets ahead of the on-demand one
    single.getSpec().getBackup().setDeltaSnapshotPeriod(cloud.gardener.druid.api.types.GoDuration.parse("10m"));
    client.resource(single).create();
    trio = load("etcd-3-local.yaml", ns.name());
    trio.getMetadata().setName("trio");
    trio.getSpec().getBackup().getStore().setPrefix(ns.name() + "/trio");
    client.resource(trio).create();
  }

  /** Runs before the operator stops: the task finalizers need it. */
  @AfterAll
  static void deleteTasks(KubernetesClient client) {
    client.resources(EtcdOpsTask.class).delete();
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() ->
        client.resources(EtcdOpsTask.class).list().getItems().isEmpty());
    clients.values().forEach(Client::close);
  }

  @Test
  @Order(1)
  void aTaskForAMissingEtcdIsRejectedNamingTheField(KubernetesClient client) {
    createTask(client, "for-nobody", "nobody", c -> c.setDefragment(new DefragmentConfig()), null);
    EtcdOpsTask task = awaitTaskState(client, "for-nobody", "Rejected");
    assertThat(task.getMetadata().getFinalizers()).contains(Finalizers.ETCD_OPS_TASK);
    assertThat(task.getStatus().getLastOperation().getType()).isEqualTo("Admit");
    assertThat(task.getStatus().getLastOperation().getState()).isEqualTo("Failed");
    assertThat(task.getStatus().getLastErrors()).singleElement().satisfies(e -> {
      assertThat(e.getCode()).isEqualTo("ERR_ETCD_NOT_FOUND");
      assertThat(e.getDescription()).startsWith("spec.etcdName:").contains("nobody");
    });
    assertThat(task.getStatus().getStartedAt()).as("never started").isNull();
  }

  @Test
  @Order(2)
  void replacingAMemberThatDoesNotExistIsRejectedNamingTheField(KubernetesClient client) {
    createTask(client, "replace-7", "trio", c -> {
      ReplaceMemberVolumeConfig r = new ReplaceMemberVolumeConfig();
      r.setMemberName("trio-7");
      c.setReplaceMemberVolume(r);
    }, null);
    EtcdOpsTask task = awaitTaskState(client, "replace-7", "Rejected");
    assertThat(task.getStatus().getLastErrors()).singleElement().satisfies(e -> {
      assertThat(e.getCode()).isEqualTo("ERR_INVALID_MEMBER_NAME");
      assertThat(e.getDescription())
          .startsWith("spec.config.replaceMemberVolume.memberName:")
          .contains("\"trio-7\"", "trio-0, trio-1, trio-2");
    });
    // events are recorded after the status is written, not with it
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(events(client, "EtcdOpsTask", "replace-7")).extracting(Event::getReason)
            .contains("Rejected"));
  }

  @Test
  @Order(3)
  void aFinishedTaskIsDeletedAfterItsTtl(KubernetesClient client) {
    createTask(client, "short-lived", "nobody", c -> c.setDefragment(new DefragmentConfig()), 3);
    EtcdOpsTask rejected = awaitTaskState(client, "short-lived", "Rejected");
    Instant finished = Instant.parse(rejected.getStatus().getLastTransitionTime());
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
        .until(() -> client.resources(EtcdOpsTask.class).withName("short-lived").get() == null);
    assertThat(Instant.now()).as("not deleted before its TTL")
        .isAfterOrEqualTo(finished.plusSeconds(3));
    // events are recorded after the status is written, not with it
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(events(client, "EtcdOpsTask", "short-lived")).extracting(Event::getReason)
            .contains("Expired"));
  }

  @Test
  @Order(4)
  void anOnDemandFullSnapshotLandsInTheStore(KubernetesClient client) throws Exception {
    awaitRolloutComplete(client, "snap");
    long revision = put(single, client, "/full/key", "v");
    createTask(client, "full", "snap", c -> c.setOnDemandSnapshot(snapshot(SnapshotType.FULL)), null);
    EtcdOpsTask task = awaitTaskState(client, "full", "Succeeded");
    assertThat(task.getStatus().getStartedAt()).isNotNull();
    assertThat(task.getStatus().getLastOperation().getType()).isEqualTo("Execution");
    assertThat(task.getStatus().getLastOperation().getState()).isEqualTo("Completed");
    assertThat(task.getStatus().getLastOperation().getDescription())
        .contains("full snapshot up to revision", "snap-0");
    assertThat(storeFiles("snap", "Full")).as("a full snapshot covering revision " + revision)
        .anyMatch(m -> Long.parseLong(m.group(3)) >= revision);
    // events are recorded after the status is written, not with it
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(events(client, "Etcd", "snap")).extracting(Event::getReason)
            .contains("OnDemandSnapshotTaken"));
  }

  @Test
  @Order(5)
  void anOnDemandDeltaSnapshotLandsInTheStore(KubernetesClient client) throws Exception {
    awaitRolloutComplete(client, "snap");
    long revision = put(single, client, "/delta/key", "v");
    createTask(client, "delta", "snap", c -> c.setOnDemandSnapshot(snapshot(SnapshotType.DELTA)),
        null);
    EtcdOpsTask task = awaitTaskState(client, "delta", "Succeeded");
    assertThat(task.getStatus().getLastOperation().getDescription())
        .contains("delta snapshot up to revision");
    assertThat(storeFiles("snap", "Incr")).as("a delta snapshot covering revision " + revision)
        .anyMatch(m -> Long.parseLong(m.group(2)) <= revision
            && Long.parseLong(m.group(3)) >= revision);
  }

  @Test
  @Order(6)
  void defragmentationGoesMemberByMemberLeaderLastWhileClientsWriteAndALaterTaskWaits(
      KubernetesClient client) throws Exception {
    String leader = awaitRolloutComplete(client, "trio").getStatus().getMembers()
        .stream().filter(m -> "Leader".equals(m.getRole())).findFirst().orElseThrow().getName();
    try (LoadClient load = new LoadClient(EtcdClients.endpoints(client, trio), "/defrag",
        Duration.ofMinutes(5))) {
      createTask(client, "t1-defrag", "trio", c -> c.setDefragment(new DefragmentConfig()), null);
      createTask(client, "t2-snapshot", "trio",
          c -> c.setOnDemandSnapshot(snapshot(SnapshotType.FULL)), null);
      EtcdOpsTask defrag = awaitTaskState(client, "t1-defrag", "Succeeded");
      EtcdOpsTask after = awaitTaskState(client, "t2-snapshot", "Succeeded");
      load.stop();

      String done = defrag.getStatus().getLastOperation().getDescription();
      assertThat(done).contains("trio-0", "trio-1", "trio-2");
      assertThat(done.substring(done.lastIndexOf(", ") + 2)).as("the former leader last: " + done)
          .isEqualTo(leader);
      assertThat(Instant.parse(after.getStatus().getStartedAt()))
          .as("the later task started only after the defragmentation finished")
          .isAfterOrEqualTo(Instant.parse(defrag.getStatus().getLastTransitionTime()));
      // events are recorded after the status is written, not with it
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
          assertThat(events(client, "Etcd", "trio")).filteredOn(e ->
              "MemberDefragmented".equals(e.getReason())).hasSize(3));
      assertThat(RolloutCompletion.isComplete(client.resources(Etcd.class).withName("trio").get()))
          .as("every member still ready").isTrue();
      assertThat(load.failures()).as("slowest request " + load.slowestMillis()
          + " ms; failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      assertThat(load.requests()).isGreaterThan(10);
    }
  }

  /**
   * A full snapshot of a database of {@link #LARGE_MIB} MiB of incompressible values takes a
   * few seconds: the task's status says how far it is (bytes of the database size) before it
   * succeeds. Every status version is recorded by a watch.
   */
  @Test
  @Order(7)
  void aLongFullSnapshotShowsItsProgressInTheTaskStatusBeforeItSucceeds(
      KubernetesClient client) throws Exception {
    awaitRolloutComplete(client, "snap");
    Client c = clients.computeIfAbsent("snap",
        n -> EtcdClients.connect(EtcdClients.endpoints(client, single)));
    java.util.Random random = new java.util.Random(19);
    byte[] value = new byte[1 << 20];
    for (int i = 0; i < LARGE_MIB; i++) {
      random.nextBytes(value);
      c.getKVClient().put(EtcdClients.bytes("/large/" + i),
          io.etcd.jetcd.ByteSequence.from(value)).get(60, TimeUnit.SECONDS);
    }
    List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (io.fabric8.kubernetes.client.Watch watch = client.resources(EtcdOpsTask.class)
        .withName("progress").watch(new io.fabric8.kubernetes.client.Watcher<>() {
          @Override
          public void eventReceived(Action action, EtcdOpsTask task) {
            if (task.getStatus() != null && task.getStatus().getLastOperation() != null) {
              seen.add(task.getStatus().getState() + ": "
                  + task.getStatus().getLastOperation().getDescription());
            }
          }

          @Override
          public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
          }
        })) {
      Instant started = Instant.now();
      createTask(client, "progress", "snap",
          c2 -> c2.setOnDemandSnapshot(snapshot(SnapshotType.FULL)), null);
      awaitTaskState(client, "progress", "Succeeded");
      Duration took = Duration.between(started, Instant.now());
      await().atMost(Duration.ofSeconds(30)).until(() -> seen.stream()
          .anyMatch(l -> l.startsWith("Succeeded")));
      int succeeded = seen.indexOf(seen.stream().filter(l -> l.startsWith("Succeeded"))
          .findFirst().orElseThrow());
      assertThat(seen.subList(0, succeeded))
          .as("status versions seen in " + took.toMillis() + " ms: " + seen)
          .anyMatch(l -> l.matches("InProgress: full snapshot by the agent of snap-0:"
              + " [0-9.]+ (B|KiB|MiB|GiB) of ~[0-9.]+ MiB"));
    }
  }

  static final int LARGE_MIB = 128;

  // ------------------------------------------------------------------ helpers

  static OnDemandSnapshotConfig snapshot(SnapshotType type) {
    OnDemandSnapshotConfig s = new OnDemandSnapshotConfig();
    s.setType(type);
    return s;
  }

  /**
   * Writes a key through a client kept for the whole class (a first connection on a loaded
   * machine can be slow; closing a client with a call in flight can hang); its revision.
   */
  static long put(Etcd etcd, KubernetesClient client, String key, String value) {
    Client c = clients.computeIfAbsent(etcd.getMetadata().getName(),
        n -> EtcdClients.connect(EtcdClients.endpoints(client, etcd)));
    return await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() ->
        c.getKVClient().put(EtcdClients.bytes(key), EtcdClients.bytes(value))
            .get(20, TimeUnit.SECONDS).getHeader().getRevision(), r -> r > 0);
  }

  /** The snapshots of {@code kind} (Full or Incr) in the Local store of an Etcd. */
  static List<Matcher> storeFiles(String etcd, String kind) throws Exception {
    Etcd e = etcd.equals("snap") ? single : trio;
    Path dir = harness.snapshots(e);
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> SNAPSHOT.matcher(f.getFileName().toString()))
          .filter(Matcher::matches).filter(m -> kind.equals(m.group(1))).toList();
    }
  }
}
