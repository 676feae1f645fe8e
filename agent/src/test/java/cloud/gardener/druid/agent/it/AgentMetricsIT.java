package cloud.gardener.druid.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.agent.etcd.MemberClient;
import cloud.gardener.druid.agent.metrics.UpstreamMetrics;
import cloud.gardener.druid.agent.metrics.UpstreamMetrics.Family;
import cloud.gardener.druid.agent.testing.AgentArgs;
import cloud.gardener.druid.agent.testing.AgentProcess;
import cloud.gardener.druid.agent.testing.LocalEtcd;
import cloud.gardener.druid.agent.util.LoopbackPorts;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape;
import cloud.gardener.druid.testenv.metrics.PrometheusScrape.Sample;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scrapes a running agent's {@code /metrics} as Gardener's Prometheus does and compares it
 * with etcd-backup-restore's families written in {@link UpstreamMetrics}.
 */
class AgentMetricsIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOST = "127.0.0.1";

  @TempDir
  Path work;

  @Test
  void aRunningAgentExposesUpstreamsFamiliesWithWhatItDid() throws Exception {
    int clientPort = LoopbackPorts.on(HOST);
    int peerPort = LoopbackPorts.on(HOST);
    int serverPort = LoopbackPorts.on(HOST);
    List<String> args = AgentArgs.member("etcd-test-0", HOST, clientPort, peerPort, serverPort,
        "etcd-test-0=http://" + HOST + ":" + peerPort, work.resolve("data/new.etcd"));
    args.addAll(AgentArgs.localStore(work.resolve("backups")));
    Path log = AgentProcess.logDir("AgentMetricsIT").resolve("agent.log");
    try (AgentProcess agent = new AgentProcess(args, HOST, serverPort, log);
        MemberClient etcd = new MemberClient(URI.create("http://" + HOST + ":" + clientPort),
            Optional.empty())) {
      agent.awaitReady(Duration.ofSeconds(90));
      for (int i = 0; i < 20; i++) {
        etcd.client().getKVClient().put(LocalEtcd.bytes("/k/" + i), LocalEtcd.bytes("v" + i))
            .get(10, TimeUnit.SECONDS);
      }
      JsonNode full = JSON.readTree(agent.post(AgentApi.SNAPSHOT_FULL).body());
      etcd.client().getKVClient().put(LocalEtcd.bytes("/after"), LocalEtcd.bytes("x"))
          .get(10, TimeUnit.SECONDS);
      Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> PrometheusScrape.parse(
          agent.get(AgentApi.METRICS).body()).value("etcdbr_snapstore_latest_deltas_total",
          Map.of()).orElse(0.0) >= 1);
      assertThat(agent.post(AgentApi.DEFRAGMENT).statusCode()).isEqualTo(200);

      HttpResponse<String> response = agent.get(AgentApi.METRICS);
      PrometheusScrape scrape = PrometheusScrape.parse(response.body());

      assertThat(response.headers().firstValue("Content-Type")).hasValue(
          "text/plain; version=0.0.4; charset=utf-8");
      for (Family family : UpstreamMetrics.FAMILIES) {
        assertThat(scrape.types()).as(family.name())
            .containsEntry(family.name(), family.type());
        String sampleName = family.type().equals("histogram") ? family.name() + "_count"
            : family.name();
        for (Sample sample : scrape.samples(sampleName)) {
          assertThat(sample.labels().keySet()).as(family.name())
              .containsExactlyInAnyOrderElementsOf(family.labels());
        }
      }
      assertThat(scrape.samples().stream().map(Sample::name).collect(Collectors.toSet()))
          .containsAll(UpstreamMetrics.GARDENER_ALLOW_LIST);
      assertThat(scrape.value("etcdbr_snapshot_latest_revision", Map.of("kind", "Full")))
          .hasValue(full.path("endRevision").asDouble());
      assertThat(scrape.value("etcdbr_snapshot_duration_seconds_count",
          Map.of("kind", "Full", "succeeded", "true"))).as("the leader's first and ours")
          .get(org.assertj.core.api.InstanceOfAssertFactories.DOUBLE).isGreaterThanOrEqualTo(1);
      assertThat(scrape.value("etcdbr_snapshot_duration_seconds_count",
          Map.of("kind", "Incr", "succeeded", "true"))).get(
              org.assertj.core.api.InstanceOfAssertFactories.DOUBLE).isGreaterThanOrEqualTo(1);
      assertThat(scrape.value("etcdbr_validation_duration_seconds_count",
          Map.of("succeeded", "true"))).hasValue(1.0);
      assertThat(scrape.value("etcdbr_cluster_size", Map.of())).hasValue(1.0);
      assertThat(scrape.value("etcdbr_defragmentation_duration_seconds_count",
          Map.of("endpoint", "http://" + HOST + ":" + clientPort, "succeeded", "true")))
          .hasValue(1.0);
      assertThat(scrape.value("process_resident_memory_bytes", Map.of()))
          .get(org.assertj.core.api.InstanceOfAssertFactories.DOUBLE).isPositive();
      assertThat(scrape.types()).containsKey("jvm_memory_used_bytes");
    }
  }
}
