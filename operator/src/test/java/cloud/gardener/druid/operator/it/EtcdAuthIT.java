package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.condition;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.events;
import static cloud.gardener.druid.operator.it.ItSupport.pods;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.VerifyBackupsConfig;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * An Etcd with {@code spec.etcd.authSecretRef} whose user turns etcd's authentication on, as
 * with upstream (the operator never enables it): the agents authenticate with the Secret's
 * user for snapshots, a restart roll (leadership moves), the drill Job and, after every volume
 * is lost, the restore from these backups; a password changed in etcd and then in the Secret
 * applies without a restart; the password is in no pod, pod log or event.
 */
@WithOperator
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdAuthIT {

  private static final String NAME = "authed";
  private static final String SECRET = "authed-etcd-user";
  private static final String FIRST = "first-" + UUID.randomUUID();
  private static final String SECOND = "second-" + UUID.randomUUID();
  private static final int KEYS = 40;

  static String password = FIRST;

  @AfterAll
  static void deleteTasks(KubernetesClient client) {
    client.resources(EtcdOpsTask.class).delete();
  }

  @Test
  @Order(1)
  void membersKeepSnapshottingOnceTheUserTurnsAuthenticationOn(KubernetesClient client,
      TestNamespace ns) throws Exception {
    client.resource(new SecretBuilder().withNewMetadata().withName(SECRET).endMetadata()
        .withStringData(Map.of("username", "root", "password", FIRST)).build()).create();
    createEtcdWithVolumes(client, ns, NAME, 3, "standard", e -> {
      SecretReference user = new SecretReference();
      user.setName(SECRET);
      e.getSpec().getEtcd().setAuthSecretRef(user);
    });
    awaitRolloutComplete(client, NAME);
    try (Client plain = EtcdClients.connect(endpoints(client))) {
      plain.getAuthClient().userAdd(EtcdClients.bytes("root"), EtcdClients.bytes(FIRST))
          .get(10, TimeUnit.SECONDS);
      plain.getAuthClient().userGrantRole(EtcdClients.bytes("root"), EtcdClients.bytes("root"))
          .get(10, TimeUnit.SECONDS);
      plain.getAuthClient().authEnable().get(10, TimeUnit.SECONDS);
      assertThatThrownBy(() -> EtcdClients.put(plain.getKVClient(), "/open", "x"))
          .as("a client without a user, once authentication is on")
          .hasStackTraceContaining("user name is empty");
    }
    QuorumLossRecovery.awaitBackedUp(client, NAME, put(client, "/before-roll/"));

    OnDemandSnapshotConfig full = new OnDemandSnapshotConfig();
    full.setType(OnDemandSnapshotConfig.SnapshotType.FULL);
    createTask(client, "full", NAME, c -> c.setOnDemandSnapshot(full), null);
    assertThat(awaitTaskState(client, "full", "Succeeded").getStatus().getLastOperation()
        .getDescription()).contains("full snapshot up to revision");
  }

  @Test
  @Order(2)
  void aRestartRollMovesLeadershipAndCompletes(KubernetesClient client) throws Exception {
    List<String> before = uids(client);
    EtcdEdits.edit(client, NAME, e -> e.getSpec().getEtcd().setQuota(new Quantity("4Gi")));
    Etcd rolled = awaitRolloutComplete(client, NAME);
    assertThat(uids(client)).as("every member restarted").doesNotContainAnyElementsOf(before);
    assertThat(rolled.getStatus().getMembers()).extracting(m -> m.getRole())
        .containsExactlyInAnyOrder("Leader", "Member", "Member");
    assertKeys(client, "/before-roll/");
  }

  @Test
  @Order(3)
  void aPasswordChangedInEtcdAndThenInTheSecretAppliesWithoutARestart(
      KubernetesClient client, OperatorHarness operator) throws Exception {
    List<String> before = uids(client);
    Path store = operator.snapshots(etcd(client, NAME));
    List<String> fullBefore = fullSnapshots(store);
    try (Client root = authenticated(client)) {
      root.getAuthClient().userChangePassword(EtcdClients.bytes("root"),
          EtcdClients.bytes(SECOND)).get(10, TimeUnit.SECONDS);
    }
    password = SECOND;
    client.secrets().withName(SECRET).edit(s -> new SecretBuilder(s).withData(null)
        .withStringData(Map.of("username", "root", "password", SECOND)).build());
    // the node refreshes the Secret's volume; the agents read the file again when etcd
    // refuses their token
    QuorumLossRecovery.awaitBackedUp(client, NAME, put(client, "/after-rotation/"));
    assertThat(uids(client)).as("no member restarted").isEqualTo(before);
    // delta snapshots do not carry etcd's users: the leader's agent takes a full snapshot
    await().atMost(Duration.ofSeconds(60)).until(() -> !fullBefore.containsAll(
        fullSnapshots(store)));
  }

  private static List<String> fullSnapshots(Path store) throws Exception {
    try (Stream<Path> files = Files.list(store)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("Full-"))
          .sorted().toList();
    }
  }

  @Test
  @Order(4)
  void aDrillOfTheseBackupsIsVerified(KubernetesClient client) {
    createTask(client, "verify", NAME, c -> c.setVerifyBackups(new VerifyBackupsConfig()), null);
    awaitTaskState(client, "verify", "Succeeded");
    await().atMost(Duration.ofSeconds(60)).until(
        () -> condition(client, NAME, ConditionTypes.BACKUP_VERIFIED),
        c -> ConditionTypes.TRUE.equals(c.getStatus()));
  }

  @Test
  @Order(5)
  void afterEveryVolumeIsLostTheMembersRestoreEveryKeyWithAuthenticationStillOn(
      KubernetesClient client) throws Exception {
    QuorumLossRecovery.awaitBackedUp(client, NAME, put(client, "/before-loss/"));
    QuorumLossRecovery.lose(client, NAME, List.of(NAME + "-0", NAME + "-1", NAME + "-2"));
    QuorumLossRecovery.recover(client, NAME, "recover");
    assertKeys(client, "/before-roll/");
    assertKeys(client, "/after-rotation/");
    assertKeys(client, "/before-loss/");
    try (Client plain = EtcdClients.connect(endpoints(client))) {
      assertThatThrownBy(() -> EtcdClients.get(plain.getKVClient(), "/before-loss/0"))
          .hasStackTraceContaining("user name is empty");
    }
  }

  @Test
  @Order(6)
  void neitherPasswordIsInAPodAPodLogOrAnEvent(KubernetesClient client, LocalCluster cluster)
      throws Exception {
    String podSpecs = pods(client, NAME).stream().map(Serialization::asJson)
        .collect(Collectors.joining("\n"));
    String eventText = Stream.of("Etcd", "EtcdOpsTask", "Pod")
        .flatMap(kind -> client.v1().events().list().getItems().stream()
            .filter(e -> kind.equals(e.getInvolvedObject().getKind())))
        .map(e -> e.getMessage()).collect(Collectors.joining("\n"));
    assertThat(events(client, "Etcd", NAME)).isNotEmpty();
    for (String secret : List.of(FIRST, SECOND)) {
      assertThat(podSpecs).doesNotContain(secret);
      assertThat(eventText).doesNotContain(secret);
      try (var logs = Files.walk(cluster.workDir().resolve("logs"))) {
        for (Path log : logs.filter(Files::isRegularFile).toList()) {
          assertThat(Files.readString(log, StandardCharsets.ISO_8859_1)).as("log " + log)
              .doesNotContain(secret);
        }
      }
    }
  }

  private static List<String> endpoints(KubernetesClient client) {
    return EtcdClients.endpoints(client, etcd(client, NAME));
  }

  private static Client authenticated(KubernetesClient client) {
    return EtcdClients.connect(endpoints(client), "root", password);
  }

  private static List<String> uids(KubernetesClient client) {
    return pods(client, NAME).stream().map(Pod::getMetadata).map(m -> m.getUid()).sorted()
        .toList();
  }

  /** Writes {@code prefix}0.. as the root user; the revision of the last write. */
  private static long put(KubernetesClient client, String prefix) throws Exception {
    try (Client root = authenticated(client)) {
      long revision = 0;
      for (int i = 0; i < KEYS; i++) {
        revision = root.getKVClient().put(EtcdClients.bytes(prefix + i),
            EtcdClients.bytes("v" + i)).get(20, TimeUnit.SECONDS).getHeader().getRevision();
      }
      return revision;
    }
  }

  private static void assertKeys(KubernetesClient client, String prefix) throws Exception {
    try (Client root = authenticated(client)) {
      for (int i = 0; i < KEYS; i++) {
        assertThat(EtcdClients.get(root.getKVClient(), prefix + i)).as(prefix + i)
            .isEqualTo("v" + i);
      }
    }
  }
}
