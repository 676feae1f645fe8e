package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.api.member.EtcdRelease;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.contract.RolloutRecorder;
import cloud.gardener.druid.testenv.etcd.EtcdBuilds;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * One 3-member Etcd created at etcd 3.5, upgraded to 3.6 and 3.7 and downgraded to 3.6 through
 * etcd's protocol, each change under a client that keeps writing: no failed request, every key
 * kept, and no status version complete while a member runs the old etcd (its pod revision) or
 * etcd's cluster version, asked from etcd itself, is not the spec's minor.
 */
@WithOperator
@ResourceLock(ItSupport.CLIENT_LOAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdVersionIT {

  private static final String NAME = "versions";
  private static final Pattern CLUSTER = Pattern.compile("\"etcdcluster\":\"([^\"]*)\"");
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeAll
  static void createAt35(TestNamespace ns, KubernetesClient client) throws Exception {
    EtcdBuilds.directory("3.5");
    EtcdBuilds.directory("3.7");
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName(NAME);
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/" + NAME);
    etcd.getSpec().getEtcd().setVersion("3.5");
    client.resource(etcd).create();
    Etcd done = awaitRolloutComplete(client, NAME, Duration.ofMinutes(4));
    assertVersions(done, EtcdRelease.V3_5);
  }

  @Test
  @Order(1)
  void upgradesTo36AndThen37UnderWritesKeepingEveryKey(KubernetesClient client,
      OperatorHarness operator) throws Exception {
    change(client, operator, EtcdRelease.V3_6, "/up36");
    change(client, operator, EtcdRelease.V3_7, "/up37");
    assertThat(ItSupport.events(client, "Etcd", NAME).stream().map(e -> e.getMessage()))
        .anyMatch(m -> m.contains("taken before etcd 3.6 runs"))
        .anyMatch(m -> m.contains("taken before etcd 3.7 runs"));
  }

  @Test
  @Order(2)
  void skippingAMinorIsRefusedAtAdmissionNamingTheField(KubernetesClient client) {
    assertThatThrownBy(() -> EtcdEdits.edit(client, NAME,
        e -> e.getSpec().getEtcd().setVersion("3.5")))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.etcd.version")
        .hasMessageContaining("3.7 to 3.5 skips a minor");
    assertThat(ItSupport.etcd(client, NAME).getSpec().getEtcd().getVersion()).isEqualTo("3.7");
  }

  @Test
  @Order(3)
  void downgradesTo36ThroughEtcdsProtocolUnderWrites(KubernetesClient client,
      OperatorHarness operator) throws Exception {
    Etcd done = change(client, operator, EtcdRelease.V3_6, "/down36");
    assertThat(done.getStatus().getEtcdDowngradeTarget()).isNull();
    assertThat(ItSupport.events(client, "Etcd", NAME).stream().map(e -> e.getReason()))
        .contains("EtcdDowngrade");
  }

  /**
   * A downgrade someone enables by hand (etcd's gateway, as etcdctl would) is not what the spec
   * asks for: the operator cancels it, etcd's cluster version comes back, no member restarts.
   */
  @Test
  @Order(4)
  void aDowngradeEnabledByHandIsCancelledWithoutARestart(KubernetesClient client)
      throws Exception {
    java.util.Map<String, String> uids = new java.util.HashMap<>();
    ItSupport.pods(client, NAME).forEach(p -> uids.put(p.getMetadata().getName(),
        p.getMetadata().getUid()));
    String endpoint = EtcdClients.endpoints(client, ItSupport.etcd(client, NAME)).get(0);
    HttpResponse<String> enabled = HTTP.send(HttpRequest.newBuilder(URI.create(endpoint
        + "/v3/maintenance/downgrade")).POST(HttpRequest.BodyPublishers.ofString(
            "{\"action\":\"ENABLE\",\"version\":\"3.5\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(enabled.statusCode()).as(enabled.body()).isEqualTo(200);
    org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(2)).until(() ->
        ItSupport.events(client, "Etcd", NAME).stream()
            .anyMatch(e -> e.getMessage().contains("cancelling etcd's downgrade to 3.5")));
    org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(2)).ignoreExceptions()
        .until(() -> {
          Etcd e = ItSupport.etcd(client, NAME);
          return e.getStatus().getEtcdDowngradeTarget() == null
              && clusterVersion(client).startsWith("3.6.")
              && cloud.gardener.druid.api.RolloutCompletion.isComplete(e);
        });
    java.util.Map<String, String> after = new java.util.HashMap<>();
    ItSupport.pods(client, NAME).forEach(p -> after.put(p.getMetadata().getName(),
        p.getMetadata().getUid()));
    assertThat(after).as("member pods after the cancel").isEqualTo(uids);
  }

  /** Changes the version under load and checks every guarantee; the Etcd as completed. */
  private static Etcd change(KubernetesClient client, OperatorHarness operator,
      EtcdRelease to, String prefix) throws Exception {
    Etcd before = ItSupport.etcd(client, NAME);
    try (RolloutRecorder recorder = RolloutRecorder.start(client, before, operator.settings())
            .probingClusterVersion(() -> clusterVersion(client));
        LoadClient load = new LoadClient(EtcdClients.endpoints(client, before), prefix,
            Duration.ofMinutes(8))) {
      Etcd changed = EtcdEdits.edit(client, NAME, e -> e.getSpec().getEtcd()
          .setVersion(to.minor()));
      Etcd done = awaitRolloutComplete(client, NAME, Duration.ofMinutes(6));
      load.stop();
      assertThat(recorder.violations()).as(recorder.describe()).isEmpty();
      assertThat(recorder.completeVersions(changed.getMetadata().getGeneration())).isPositive();
      assertThat(recorder.restartedPods()).hasSize(3);
      assertThat(recorder.restartedLeaders()).as("members deleted while they led").isEmpty();
      assertThat(load.failures()).as("slowest request " + load.slowestMillis()
          + " ms; failed client requests of " + load.requests()
          + " (" + load.retries() + " retried on UNAVAILABLE)").isEmpty();
      assertThat(load.requests()).isGreaterThan(10);
      for (long i = 0; i < load.written(); i += Math.max(1, load.written() / 20)) {
        assertThat(EtcdClients.get(load.client().getKVClient(), prefix + "/" + i))
            .isEqualTo("v" + i);
      }
      assertVersions(done, to);
      assertThat(clusterVersion(client)).startsWith(to.minor() + ".");
      return done;
    }
  }

  private static void assertVersions(Etcd etcd, EtcdRelease release) {
    assertThat(etcd.getStatus().getEtcdClusterVersion()).startsWith(release.minor() + ".");
    assertThat(etcd.getStatus().getMembers()).hasSize(3)
        .allSatisfy(m -> assertThat(m.getEtcdVersion()).isEqualTo(release.version()));
  }

  /** etcd's own answer ({@code /version} of the first member that answers). */
  private static String clusterVersion(KubernetesClient client) {
    for (String endpoint : EtcdClients.endpoints(client, ItSupport.etcd(client, NAME))) {
      try {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(endpoint
            + "/version")).timeout(Duration.ofSeconds(2)).build(),
            HttpResponse.BodyHandlers.ofString());
        Matcher m = CLUSTER.matcher(r.body());
        if (r.statusCode() == 200 && m.find()) {
          return m.group(1);
        }
      } catch (java.io.IOException e) {
        // the member restarts: ask the next
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return null;
  }
}
