package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createEtcdWithVolumes;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.etcd;
import static cloud.gardener.druid.operator.it.ItSupport.pods;
import static cloud.gardener.druid.operator.it.MemberDatabases.database;
import static cloud.gardener.druid.operator.it.MemberDatabases.endpointOf;
import static cloud.gardener.druid.operator.it.MemberDatabases.isLeader;
import static cloud.gardener.druid.operator.it.MemberDatabases.replaceInPlace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.api.v1alpha1.ReplaceMemberVolumeConfig;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.metrics.EtcdGauges;
import cloud.gardener.druid.operator.model.CompactionSettings;
import cloud.gardener.druid.operator.model.LocalStoreLayout;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * etcd's periodic corruption check on a running cluster (docs/backup-verification.md): a
 * follower's database changes under its running etcd (bytes of a value rewritten in its bbolt
 * file in place; bbolt reads through a shared mmap, so etcd hashes the changed page), the
 * leader's check raises the CORRUPT alarm naming it, etcd refuses every write, the operator
 * names the member and the cure, and replacing the member's volume brings the cluster back to
 * accepting writes (the agent disarms the alarm of the removed member) with every
 * acknowledged key. The operator runs with a 3 s check period instead of the hourly default.
 */
@LocalKubernetes
class LiveCorruptionIT {

  private static final Duration CHECK_PERIOD = Duration.ofSeconds(3);
  private static final int KEYS = 100;

  @ParameterizedTest
  @ValueSource(strings = {"3.5", "3.6", "3.7"})
  void aFollowerWhoseDataChangesWhileItRunsIsAlarmedNamedAndReplaced(String minor,
      LocalCluster cluster, KubernetesClient client, TestNamespace ns) throws Exception {
    String name = "live-" + minor.replace(".", "");
    CrdInstaller.install(client, "etcd-druid-tests");
    Path stores = Files.createDirectories(cluster.workDir().resolve("stores").resolve(ns.name()));
    OperatorSettings settings = new OperatorSettings(OperatorSettings.DEFAULT_IMAGE,
        stores.toString(), CompactionSettings.DISABLED, LocalStoreLayout.PER_NAMESPACE,
        CHECK_PERIOD);
    try (EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(
        Set.of(ns.name()), true, false, null, settings))) {
      operator.start();
      createEtcdWithVolumes(client, ns, name, 3, "standard",
          e -> e.getSpec().getEtcd().setVersion(minor));
      awaitRolloutComplete(client, name);
      await().atMost(Duration.ofSeconds(30)).until(() -> consistent(client, name)
          .filter(c -> ConditionTypes.TRUE.equals(c.getStatus())).isPresent());
      Pod follower = pods(client, name).stream().filter(p -> !isLeader(client, p))
          .findFirst().orElseThrow();
      String member = follower.getMetadata().getName();
      Map<String, String> written = write(follower);

      int changed = replaceInPlace(database(client, name, member), "replicas=3", "replicas=9");
      assertThat(changed).as("copies of the value in the member's database").isPositive();

      // etcd: the leader's periodic check raises CORRUPT naming the follower (3.6+) or no
      // member (3.5: member 0, etcd-io/etcd#14828)
      boolean named = !"3.5".equals(minor);
      String memberId = memberId(client, name, member);
      List<String> endpoints = EtcdClients.endpoints(client, etcd(client, name));
      String alarms = await().atMost(CHECK_PERIOD.multipliedBy(10))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> etcdctl(minor, endpoints, "alarm", "list"), a -> a.contains("CORRUPT"));
      assertThat(alarms.strip().replaceAll("\\s+", " ")).isEqualTo(named
          ? "memberID:" + memberId + " alarm:CORRUPT" : "alarm:CORRUPT");
      try (Client c = EtcdClients.connect(endpoints)) {
        assertThatThrownBy(() -> EtcdClients.put(c.getKVClient(), "/after", "refused"))
            .hasMessageContaining("etcdserver: corrupt cluster");
      }
      // the alarm stops no read: the follower answers from its changed data
      try (Client c = EtcdClients.connect(List.of(endpointOf(follower)))) {
        assertThat(EtcdClients.get(c.getKVClient(), "/config/replicas")).isEqualTo("replicas=9");
      }

      // the operator: the condition names the member and the cure, its status, the metric
      Condition found = await().atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500)).until(() -> consistent(client, name)
              .orElse(null), c -> c != null && ConditionTypes.FALSE.equals(c.getStatus()));
      Map<String, String> labels = Map.of("etcd_namespace", ns.name(), "etcd", name,
          "member", member);
      if (named) {
        assertThat(found.getReason()).isEqualTo("CorruptionDetected");
        assertThat(found.getMessage()).contains(member + " (etcd raised a CORRUPT alarm on"
            + " this member").contains("kubectl druid replace-member-volume " + name + " "
            + member);
        EtcdMemberStatus status = memberStatus(client, name, member);
        assertThat(status.getReason()).isEqualTo("DataCorrupted");
        assertThat(status.getDataCorruption()).contains("CORRUPT alarm");
        await().atMost(Duration.ofSeconds(10)).until(() -> PrometheusScrape
            .parse(operator.metrics().scrape()).value(EtcdGauges.MEMBER_DATA_CORRUPTED, labels)
            .filter(v -> v == 1.0).isPresent());
      } else {
        assertThat(found.getReason()).isEqualTo("CorruptionNotAttributed");
        assertThat(found.getMessage()).contains("naming no member")
            .contains("kubectl druid replace-member-volume " + name + " MEMBER")
            .contains("etcdctl alarm disarm");
      }

      // the cure: the member's volume replaced; its alarm goes with it
      createTask(client, "replace-" + name, name, c -> {
        ReplaceMemberVolumeConfig r = new ReplaceMemberVolumeConfig();
        r.setMemberName(member);
        c.setReplaceMemberVolume(r);
      }, null);
      awaitTaskState(client, "replace-" + name, "Succeeded");
      awaitRolloutComplete(client, name);
      List<String> after = EtcdClients.endpoints(client, etcd(client, name));
      if (!named) {
        // what the condition says to do once the member is replaced
        etcdctl(minor, after, "alarm", "disarm");
      }
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
          .until(() -> etcdctl(minor, after, "alarm", "list"), String::isBlank);
      try (Client c = EtcdClients.connect(after)) {
        EtcdClients.put(c.getKVClient(), "/after", "accepted");
        for (Map.Entry<String, String> e : written.entrySet()) {
          assertThat(EtcdClients.get(c.getKVClient(), e.getKey())).as(e.getKey())
              .isEqualTo(e.getValue());
        }
      }
      try (Client c = EtcdClients.connect(List.of(endpointOf(client.pods().withName(member)
          .get())))) {
        assertThat(EtcdClients.get(c.getKVClient(), "/config/replicas")).as("served by " + member)
            .isEqualTo("replicas=3");
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> consistent(client, name)
          .filter(c -> ConditionTypes.TRUE.equals(c.getStatus())).isPresent());
      assertThat(PrometheusScrape.parse(operator.metrics().scrape())
          .value(EtcdGauges.MEMBER_DATA_CORRUPTED, labels)).hasValue(0.0);
      client.resource(etcd(client, name)).delete();
    }
  }

  /** Acknowledged writes, read back through the follower: it has applied every one. */
  private static Map<String, String> write(Pod follower) throws Exception {
    Map<String, String> written = new TreeMap<>();
    try (Client c = EtcdClients.connect(List.of(endpointOf(follower)))) {
      KV kv = c.getKVClient();
      EtcdClients.put(kv, "/config/replicas", "replicas=3");
      written.put("/config/replicas", "replicas=3");
      for (int i = 0; i < KEYS; i++) {
        EtcdClients.put(kv, "/data/" + i, "value-" + i);
        written.put("/data/" + i, "value-" + i);
      }
      assertThat(EtcdClients.get(kv, "/data/" + (KEYS - 1))).isEqualTo("value-" + (KEYS - 1));
    }
    return written;
  }

  private static String etcdctl(String minor, List<String> endpoints, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(
        EtcdBuilds.directory(minor).resolve("etcdctl").toString(),
        "--endpoints=" + String.join(",", endpoints), "--command-timeout=10s"));
    command.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("etcdctl " + String.join(" ", args) + ": " + out);
    }
    return out;
  }

  /** etcd's member ID of {@code member} as etcdctl prints it in alarms (decimal). */
  private static String memberId(KubernetesClient client, String etcd, String member) {
    String hex = await().atMost(Duration.ofSeconds(30)).until(
        () -> memberStatus(client, etcd, member).getId(), id -> id != null && !id.isBlank());
    return Long.toUnsignedString(Long.parseUnsignedLong(hex, 16));
  }

  private static EtcdMemberStatus memberStatus(KubernetesClient client, String etcd,
      String member) {
    return etcd(client, etcd).getStatus().getMembers().stream()
        .filter(m -> member.equals(m.getName())).findFirst().orElseThrow();
  }

  private static Optional<Condition> consistent(KubernetesClient client, String etcd) {
    var e = etcd(client, etcd);
    return e.getStatus() == null ? Optional.empty()
        : Condition.find(e.getStatus().getConditions(), ConditionTypes.DATA_CONSISTENT);
  }
}
