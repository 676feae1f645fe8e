package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.CrdInstaller;
import cloud.gardener.druid.operator.EtcdOperator;
import cloud.gardener.druid.operator.metrics.EtcdGauges;
import cloud.gardener.druid.operator.metrics.MetricsServer;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.OperatorSettings;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.controlplane.InsecureHttp;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Scrapes what a Prometheus scrapes: the operator's {@code /metrics}, and the members through
 * the client Service by port name ({@code backuprestore} for the agent, {@code client} for
 * etcd), as Gardener's scrape configuration finds them.
 */
@LocalKubernetes
class OperatorMetricsIT {

  private static final Duration ROLLOUT = Duration.ofMinutes(3);
  /** As a scraper configured with insecure_skip_verify: the test checks the metrics, not TLS. */
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).sslContext(InsecureHttp.trustingEveryServer()).build();

  /** JOSDK's reconcile families (its Micrometer support, Prometheus naming) and their types. */
  private static final Map<String, String> JOSDK_FAMILIES = Map.of(
      "operator_sdk_reconciliations_started_total", "counter",
      "operator_sdk_reconciliations_success_total", "counter",
      "operator_sdk_events_received_total", "counter",
      "operator_sdk_controllers_execution_reconcile_seconds", "histogram");

  /** Some of etcd-backup-restore's families a Gardener dashboard reads from the agent. */
  private static final Map<String, String> AGENT_FAMILIES = Map.of(
      "etcdbr_snapshot_latest_timestamp", "gauge",
      "etcdbr_snapshot_required", "gauge",
      "etcdbr_snapshot_duration_seconds", "histogram",
      "etcdbr_snapshotter_failure", "counter",
      "etcdbr_cluster_size", "gauge",
      "process_resident_memory_bytes", "gauge");

  @Test
  void operatorAndMembersExposeWhatPrometheusScrapes(LocalCluster cluster, TestNamespace ns)
      throws Exception {
    KubernetesClient client = cluster.newClient(null);
    CrdInstaller.install(client, "etcd-druid-tests");
    Path stores = Files.createDirectories(cluster.workDir().resolve("stores").resolve(ns.name()));
    EtcdOperator operator = new EtcdOperator(client, new EtcdOperator.Options(Set.of(ns.name()),
        true, false, null, new OperatorSettings(OperatorSettings.DEFAULT_IMAGE,
        stores.toString())));
    try (client; operator; MetricsServer server = new MetricsServer(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), operator.metrics()::scrape,
        operator::ready)) {
      String base = "http://127.0.0.1:" + server.port();
      assertThat(get(base + MetricsServer.READYZ).statusCode()).isEqualTo(503);
      operator.start();
      assertThat(get(base + MetricsServer.READYZ).statusCode()).isEqualTo(200);
      assertThat(get(base + MetricsServer.HEALTHZ).statusCode()).isEqualTo(200);

      Etcd etcd = ItSupport.load("etcd-1-local.yaml", ns.name());
      etcd.getMetadata().setName("scraped");
      client.resource(etcd).create();
      await().atMost(ROLLOUT).ignoreExceptions().until(() -> RolloutCompletion.isComplete(
          client.resources(Etcd.class).inNamespace(ns.name()).withName("scraped").get()));

      Map<String, String> labels = Map.of("etcd_namespace", ns.name(), "etcd", "scraped");
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        PrometheusScrape scrape = PrometheusScrape.parse(get(base + MetricsServer.METRICS).body());
        assertThat(scrape.types()).containsAllEntriesOf(JOSDK_FAMILIES)
            .containsEntry("process_cpu_seconds_total", "counter")
            .containsEntry(EtcdGauges.MEMBERS_READY, "gauge")
            .containsEntry(EtcdGauges.ROLLOUT_IN_PROGRESS, "gauge")
            .containsEntry(EtcdGauges.VOLUME_OPERATION_PHASE, "gauge");
        assertThat(scrape.value(EtcdGauges.MEMBERS_READY, labels)).hasValue(1.0);
        assertThat(scrape.value(EtcdGauges.REPLICAS, labels)).hasValue(1.0);
        assertThat(scrape.value(EtcdGauges.ROLLOUT_IN_PROGRESS, labels)).hasValue(0.0);
        assertThat(scrape.samples("operator_sdk_reconciliations_success_total"))
            .anySatisfy(s -> assertThat(s.value()).isPositive());
      });

      Etcd created = client.resources(Etcd.class).inNamespace(ns.name()).withName("scraped")
          .get();
      List<URI> agents = await().atMost(Duration.ofSeconds(60)).until(
          () -> scrapeTargets(client, created, "backuprestore"), t -> !t.isEmpty());
      for (URI agent : agents) {
        PrometheusScrape scrape = PrometheusScrape.parse(get(agent + "/metrics").body());
        assertThat(scrape.types()).as(agent.toString()).containsAllEntriesOf(AGENT_FAMILIES);
        assertThat(scrape.value("etcdbr_cluster_size", Map.of())).hasValue(1.0);
      }
      for (URI member : scrapeTargets(client, created, "client")) {
        assertThat(PrometheusScrape.parse(get(member + "/metrics").body()).types())
            .as(member.toString()).containsEntry("etcd_server_has_leader", "gauge");
      }

      client.resource(created).delete();
      await().atMost(ROLLOUT).untilAsserted(() -> assertThat(PrometheusScrape.parse(
          get(base + MetricsServer.METRICS).body()).value(EtcdGauges.MEMBERS_READY, labels))
          .isEmpty());
    }
  }

  /**
   * What Prometheus' endpoints discovery finds for the client Service's port of that name: the
   * ready pods its selector picks, at the port's target port. The local control plane runs no
   * endpoints controller (the API server refuses the pods' loopback addresses in Endpoints),
   * so the test joins the Service and the pods the way that controller would.
   */
  private static List<URI> scrapeTargets(KubernetesClient client, Etcd etcd, String portName) {
    String namespace = etcd.getMetadata().getNamespace();
    Service service = client.services().inNamespace(namespace)
        .withName(EtcdNames.of(etcd).clientService()).get();
    List<URI> targets = new ArrayList<>();
    if (service == null) {
      return targets;
    }
    for (ServicePort port : service.getSpec().getPorts()) {
      if (!portName.equals(port.getName())) {
        continue;
      }
      for (Pod pod : client.pods().inNamespace(namespace)
          .withLabels(service.getSpec().getSelector()).list().getItems()) {
        boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null
            && pod.getStatus().getConditions().stream().anyMatch(
                c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        if (ready && pod.getStatus().getPodIP() != null) {
          // the agent API (backuprestore) is always HTTPS; its /metrics needs no certificate
          String scheme = "backuprestore".equals(portName) ? "https" : "http";
          targets.add(URI.create(scheme + "://" + pod.getStatus().getPodIP() + ":"
              + port.getTargetPort().getIntVal()));
        }
      }
    }
    return targets;
  }

  private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
        .build(), HttpResponse.BodyHandlers.ofString());
  }
}
