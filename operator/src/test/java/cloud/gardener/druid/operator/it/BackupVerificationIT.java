package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.condition;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.events;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.BackupVerificationSpec;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.VerifyBackupsConfig;
import cloud.gardener.druid.api.verify.BackupHashes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Restore drills of a running 3-member Etcd on demand (EtcdOpsTask verifyBackups): the drill
 * Job restores the Local store's newest full snapshot and its deltas into temporary etcds,
 * proves the content equal to the hashes the leader's agent recorded, and the Etcd's
 * BackupVerified condition says so; a flipped byte in that full snapshot turns it False,
 * naming the object, and fails the task.
 */
@WithOperator
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BackupVerificationIT {

  static OperatorHarness harness;
  static Etcd trio;

  @BeforeAll
  static void createEtcd(TestNamespace ns, KubernetesClient client, OperatorHarness operator)
      throws Exception {
    harness = operator;
    trio = load("etcd-3-local.yaml", ns.name());
    trio.getMetadata().setName("drilled");
    trio.getSpec().getBackup().getStore().setPrefix(ns.name() + "/drilled");
    trio.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("2s"));
    client.resource(trio).create();
  }

  @AfterAll
  static void deleteTasks(KubernetesClient client) {
    client.resources(EtcdOpsTask.class).delete();
    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() ->
        client.resources(EtcdOpsTask.class).list().getItems().isEmpty());
  }

  @Test
  @Order(1)
  void anOnDemandDrillOfCleanBackupsSetsBackupVerifiedTrue(KubernetesClient client)
      throws Exception {
    awaitRolloutComplete(client, "drilled");
    assertThat(condition(client, "drilled", ConditionTypes.BACKUP_VERIFIED).getReason())
        .isEqualTo("NotVerifiedYet");
    try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, trio))) {
      for (int i = 0; i < 200; i++) {
        etcd.getKVClient().put(EtcdClients.bytes("/drill/" + i), EtcdClients.bytes("v" + i))
            .get(20, TimeUnit.SECONDS);
      }
    }
    OnDemandSnapshotConfig full = new OnDemandSnapshotConfig();
    full.setType(OnDemandSnapshotConfig.SnapshotType.FULL);
    createTask(client, "full", "drilled", c -> c.setOnDemandSnapshot(full), null);
    awaitTaskState(client, "full", "Succeeded");
    Path store = harness.snapshots(trio);
    Path newest = newestFull(store);
    // the leader's agent hashes on a thread of its own, after the snapshot is in the store
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> Files.readString(
        store.resolve(BackupHashes.OBJECT_NAME)).contains(newest.getFileName().toString()));

    createTask(client, "verify", "drilled", c -> c.setVerifyBackups(new VerifyBackupsConfig()),
        null);
    EtcdOpsTask task = awaitTaskState(client, "verify", "Succeeded");

    assertThat(task.getStatus().getLastOperation().getDescription())
        .contains("HashKV of " + newest.getFileName());
    Condition verified = await().atMost(Duration.ofSeconds(60)).until(
        () -> condition(client, "drilled", ConditionTypes.BACKUP_VERIFIED),
        c -> ConditionTypes.TRUE.equals(c.getStatus()));
    assertThat(verified.getReason()).isEqualTo("Verified");
    assertThat(verified.getMessage()).contains(newest.getFileName().toString(),
        "up to revision " + revision(newest));
    assertThat(client.pods().withLabel("job-name", "drilled-backup-drill").list().getItems())
        .as("the drill ran in its own pod, not in a member")
        .isNotEmpty();
    // the recovery point as revisions: the cluster's revision ahead of the proven one
    long proven = revision(newest);
    Long lag = await().atMost(Duration.ofSeconds(60)).until(() -> etcd(client, "drilled")
        .getStatus().getVerifiedBackupRevisionLag(), java.util.Objects::nonNull);
    try (Client etcd = EtcdClients.connect(EtcdClients.endpoints(client, trio))) {
      long now = etcd.getKVClient().get(EtcdClients.bytes("/drill/0")).get(20, TimeUnit.SECONDS)
          .getHeader().getRevision();
      assertThat(lag).as("cluster at %d, proven %d", now, proven)
          .isBetween(0L, Math.max(0, now - proven));
    }
  }

  @Test
  @Order(2)
  void aFlippedByteInTheFullSnapshotTurnsItFalseNamingTheObject(KubernetesClient client)
      throws Exception {
    Path full = newestFull(harness.snapshots(trio));
    byte[] bytes = Files.readAllBytes(full);
    bytes[bytes.length / 2] ^= 0x01;
    Files.write(full, bytes);

    createTask(client, "verify-corrupt", "drilled",
        c -> c.setVerifyBackups(new VerifyBackupsConfig()), null);
    EtcdOpsTask task = awaitTaskState(client, "verify-corrupt", "Failed");

    assertThat(task.getStatus().getLastErrors()).anySatisfy(e -> {
      assertThat(e.getCode()).isEqualTo("ERR_BACKUP_VERIFICATION");
      assertThat(e.getDescription()).startsWith(full.getFileName().toString());
    });
    Condition verified = await().atMost(Duration.ofSeconds(60)).until(
        () -> condition(client, "drilled", ConditionTypes.BACKUP_VERIFIED),
        c -> ConditionTypes.FALSE.equals(c.getStatus()));
    assertThat(verified.getReason()).isIn("ChecksumFailed", "DecodeFailed");
    assertThat(verified.getMessage()).startsWith(full.getFileName().toString());
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(events(client, "Etcd", "drilled")).extracting(Event::getReason)
            .contains("BackupVerificationFailed"));
  }

  /**
   * A drill on the schedule ({@code spec.backup.verification.schedule}), no task asked for
   * it: the condition turns True and the operator's metrics tell the drill's outcome, how long
   * its restore took and how long ago the backups were proven.
   */
  @Test
  @Order(3)
  void aDrillOnTheScheduleVerifiesTheBackupsAndFillsTheMetrics(KubernetesClient client,
      TestNamespace ns) throws Exception {
    Etcd scheduled = load("etcd-3-local.yaml", ns.name());
    scheduled.getMetadata().setName("scheduled");
    scheduled.getSpec().setReplicas(1);
    scheduled.getSpec().getBackup().getStore().setPrefix(ns.name() + "/scheduled");
    BackupVerificationSpec verification = new BackupVerificationSpec();
    verification.setSchedule(CronSchedule.parse("* * * * *"));
    scheduled.getSpec().getBackup().setVerification(verification);
    client.resource(scheduled).create();
    awaitRolloutComplete(client, "scheduled");

    Condition verified = await().atMost(Duration.ofMinutes(4)).until(
        () -> condition(client, "scheduled", ConditionTypes.BACKUP_VERIFIED),
        c -> ConditionTypes.TRUE.equals(c.getStatus()));
    assertThat(verified.getReason()).isEqualTo("Verified");
    assertThat(client.resources(EtcdOpsTask.class).list().getItems())
        .noneMatch(t -> "scheduled".equals(t.getSpec().getEtcdName()));
    Map<String, String> etcd = Map.of("etcd_namespace", ns.name(), "etcd", "scheduled");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      PrometheusScrape metrics = PrometheusScrape.parse(harness.scrapeMetrics());
      Map<String, String> verifiedDrills = new java.util.HashMap<>(etcd);
      verifiedDrills.put("outcome", "VERIFIED");
      assertThat(metrics.value("etcddruid_backup_verification_drills_total", verifiedDrills))
          .hasValueSatisfying(v -> assertThat(v).isGreaterThanOrEqualTo(1.0));
      assertThat(metrics.value("etcddruid_backup_verification_seconds_since_last_verified",
          etcd)).hasValueSatisfying(v -> assertThat(v).isBetween(0.0, 300.0));
      assertThat(metrics.value("etcddruid_backup_verification_restore_seconds", etcd))
          .hasValueSatisfying(v -> assertThat(v).isPositive());
    });
    client.resource(scheduled).delete();
  }

  private static Path newestFull(Path store) throws Exception {
    try (Stream<Path> files = Files.list(store)) {
      return files.filter(f -> f.getFileName().toString().startsWith("Full-"))
          .max(Comparator.comparingLong(BackupVerificationIT::revision)).orElseThrow();
    }
  }

  private static long revision(Path snapshot) {
    return Long.parseLong(snapshot.getFileName().toString().split("-")[2]);
  }
}
