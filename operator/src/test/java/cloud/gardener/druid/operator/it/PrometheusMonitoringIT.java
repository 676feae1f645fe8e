package cloud.gardener.druid.operator.it;

import static cloud.gardener.druid.operator.it.ItSupport.awaitRolloutComplete;
import static cloud.gardener.druid.operator.it.ItSupport.awaitTaskState;
import static cloud.gardener.druid.operator.it.ItSupport.createTask;
import static cloud.gardener.druid.operator.it.ItSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.OnDemandSnapshotConfig;
import cloud.gardener.druid.api.v1alpha1.VerifyBackupsConfig;
import cloud.gardener.druid.api.verify.BackupHashes;
import cloud.gardener.druid.operator.metrics.MetricsServer;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.junit.TestNamespace;
import cloud.gardener.druid.testenv.prometheus.Prometheus;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The chart's monitoring pack against a real Prometheus (testenv/prometheus/build.sh) that
 * scrapes the operator, the three agents and the three etcds of a running Etcd on their
 * loopback addresses, with the labels the chart's PodMonitor gives member targets, and
 * evaluates the chart's alerts: every selector of every alert and every expression of every
 * dashboard panel returns data (a panel without data is a bug), every rule evaluates without
 * error, and none fires on the healthy Etcd; then a drill that finds a flipped byte in the
 * newest full snapshot makes EtcdBackupVerificationFailed fire.
 */
@WithOperator
class PrometheusMonitoringIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ETCD = "watched";
  private static final Duration DATA = Duration.ofMinutes(3);

  @Test
  void everyAlertAndDashboardPanelFindsDataOnARunningEtcd(KubernetesClient client,
      TestNamespace ns, OperatorHarness harness) throws Exception {
    Etcd etcd = load("etcd-3-local.yaml", ns.name());
    etcd.getMetadata().setName(ETCD);
    etcd.getSpec().getBackup().getStore().setPrefix(ns.name() + "/" + ETCD);
    etcd.getSpec().getBackup().setDeltaSnapshotPeriod(GoDuration.parse("5s"));
    client.resource(etcd).create();
    awaitRolloutComplete(client, ETCD, Duration.ofMinutes(5));

    ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
    try (MetricsServer operatorMetrics = new MetricsServer(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), harness::scrapeMetrics,
            () -> true);
        Client etcdClient = EtcdClients.connect(EtcdClients.endpoints(client, etcd))) {
      AtomicInteger written = new AtomicInteger();
      java.util.concurrent.atomic.AtomicReference<Exception> lastWriteError =
          new java.util.concurrent.atomic.AtomicReference<>();
      // etcd's disk and proposal histograms and the delta snapshots need writes
      writer.scheduleWithFixedDelay(() -> {
        try {
          int i = written.get() + 1;
          EtcdClients.put(etcdClient.getKVClient(), "/watched/" + (i % 100), "v" + i);
          written.incrementAndGet();
        } catch (Exception e) {
          lastWriteError.set(e); // a loaded machine: the next write tries again
        }
      }, 0, 250, TimeUnit.MILLISECONDS);
      await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> assertThat(written.get())
          .as("writes that succeeded (the last error: %s)", lastWriteError.get())
          .isGreaterThanOrEqualTo(20));
      proveTheBackups(client, harness, etcd);

      Path work = Files.createDirectories(Path.of("target", "it-logs",
          "prometheus-" + ns.name()).toAbsolutePath());
      Files.copy(chartFile("monitoring/alerts.yaml"), work.resolve("rules.yaml"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      String config = config(operatorMetrics.port(), ns.name(), members(client, ns.name()));
      try (Prometheus prometheus = Prometheus.start(work, config)) {
        awaitTargetsUp(prometheus, 7);
        JsonNode dashboard = JSON.readTree(chartFile("monitoring/dashboard.json").toFile());
        Map<String, String> panels = panelQueries(dashboard, ns.name());
        Map<String, String> selectors = alertSelectors(prometheus);
        assertThat(panels).hasSizeGreaterThanOrEqualTo(dashboard.get("panels").size());
        assertThat(hasData(prometheus, "etcddruid_no_such_metric"))
            .as("a selector of nothing has no data").isFalse();

        await().atMost(DATA).pollInterval(Duration.ofSeconds(5)).untilAsserted(() -> {
          List<String> empty = new ArrayList<>();
          panels.forEach((what, q) -> {
            if (!hasData(prometheus, q)) {
              empty.add(what + ": " + q);
            }
          });
          selectors.forEach((what, q) -> {
            if (!hasData(prometheus, q)) {
              empty.add(what + ": " + q);
            }
          });
          assertThat(empty).as("expressions without data").isEmpty();
        });

        assertVariablesOfferThisEtcd(prometheus, dashboard, ns.name());

        JsonNode groups = prometheus.api("/api/v1/rules").get("groups");
        List<String> rules = new ArrayList<>();
        for (JsonNode group : groups) {
          for (JsonNode rule : group.get("rules")) {
            assertThat(rule.get("health").asText()).as(rule.get("name") + " "
                + rule.path("lastError").asText()).isEqualTo("ok");
            rules.add(rule.get("name").asText());
          }
        }
        assertThat(rules).contains("EtcdNoLeader", "EtcdQuorumLost", "EtcdBackupNotVerified",
            "EtcdCertificateExpiresSoon", "EtcdDruidReconcileErrors");
        assertThat(firingAlerts(prometheus)).as("alerts firing on a healthy Etcd").isEmpty();

        // a drill that finds the backups broken pages at once: its counter was there at zero
        Path newest = harness.snapshots(etcd).resolve(newestFull(harness.snapshots(etcd)));
        byte[] bytes = Files.readAllBytes(newest);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(newest, bytes);
        createTask(client, "verify-corrupt", ETCD,
            c -> c.setVerifyBackups(new VerifyBackupsConfig()), null);
        awaitTaskState(client, "verify-corrupt", "Failed");
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(2))
            .untilAsserted(() -> assertThat(firingAlerts(prometheus))
                .contains("EtcdBackupVerificationFailed " + ns.name() + "/" + ETCD));
        assertThat(prometheus.query("max(etcd_mvcc_put_total{etcd=\"" + ETCD
            + "\"})").get(0).get("value").get(1).asDouble()).as("the writes reached etcd")
            .isGreaterThan(20);
      }
    } finally {
      writer.shutdownNow();
    }
  }

  /** The firing alerts as "NAME namespace/etcd". */
  private static List<String> firingAlerts(Prometheus prometheus) {
    List<String> firing = new ArrayList<>();
    prometheus.api("/api/v1/alerts").get("alerts").forEach(a -> {
      if ("firing".equals(a.get("state").asText())) {
        JsonNode labels = a.get("labels");
        firing.add(labels.get("alertname").asText() + " "
            + labels.path("etcd_namespace").asText() + "/" + labels.path("etcd").asText());
      }
    });
    return firing;
  }

  /** A full snapshot whose hash the leader recorded, then a drill that proves it. */
  private static void proveTheBackups(KubernetesClient client, OperatorHarness harness,
      Etcd etcd) {
    OnDemandSnapshotConfig full = new OnDemandSnapshotConfig();
    full.setType(OnDemandSnapshotConfig.SnapshotType.FULL);
    createTask(client, "full", ETCD, c -> c.setOnDemandSnapshot(full), null);
    awaitTaskState(client, "full", "Succeeded");
    Path store = harness.snapshots(etcd);
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> Files.readString(
        store.resolve(BackupHashes.OBJECT_NAME)).contains(newestFull(store)));
    createTask(client, "verify", ETCD, c -> c.setVerifyBackups(new VerifyBackupsConfig()),
        null);
    awaitTaskState(client, "verify", "Succeeded");
  }

  private static String newestFull(Path store) throws Exception {
    try (Stream<Path> files = Files.list(store)) {
      return files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("Full-"))
          .max(Comparator.comparingLong(f -> Long.parseLong(f.split("-")[2]))).orElseThrow();
    }
  }

  /** One member pod: its name and loopback address, its etcd and agent ports. */
  private record Member(String pod, String ip, int etcdPort, int agentPort) {
  }

  private static List<Member> members(KubernetesClient client, String namespace) {
    Etcd etcd = client.resources(Etcd.class).inNamespace(namespace).withName(ETCD).get();
    List<Member> members = new ArrayList<>();
    for (Pod pod : client.pods().inNamespace(namespace)
        .withLabels(EtcdLabels.memberSelector(etcd)).list().getItems()) {
      Map<String, Integer> ports = new LinkedHashMap<>();
      for (ContainerPort port : pod.getSpec().getContainers().get(0).getPorts()) {
        ports.put(port.getName(), port.getContainerPort());
      }
      String ip = pod.getStatus().getPodIP();
      assertThat(ip).as("a member's address is on loopback").startsWith("127.");
      members.add(new Member(pod.getMetadata().getName(), ip, ports.get("client"),
          ports.get("agent")));
    }
    assertThat(members).hasSize(3);
    return members;
  }

  /**
   * Static targets on loopback with the labels the chart's PodMonitor relabels member targets
   * to (etcd_namespace, etcd, pod, job), the chart's rules evaluated every 2 s.
   */
  private static String config(int operatorPort, String namespace, List<Member> members) {
    StringBuilder etcds = new StringBuilder();
    StringBuilder agents = new StringBuilder();
    for (Member m : members) {
      String labels = "    labels: {etcd_namespace: '" + namespace + "', etcd: '" + ETCD
          + "', pod: '" + m.pod() + "'}\n";
      etcds.append("  - targets: ['").append(m.ip()).append(':').append(m.etcdPort())
          .append("']\n").append(labels);
      agents.append("  - targets: ['").append(m.ip()).append(':').append(m.agentPort())
          .append("']\n").append(labels);
    }
    return """
        global:
          scrape_interval: 2s
          scrape_timeout: 2s
          evaluation_interval: 2s
        rule_files: [rules.yaml]
        scrape_configs:
        - job_name: etcd-druid
          static_configs:
          - targets: ['127.0.0.1:%d']
        - job_name: etcd-druid-etcd
          static_configs:
        %s- job_name: etcd-druid-agent
          scheme: https
          tls_config: {insecure_skip_verify: true}
          static_configs:
        %s""".formatted(operatorPort, etcds, agents);
  }

  private static void awaitTargetsUp(Prometheus prometheus, int count) {
    await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(
        () -> {
          JsonNode targets = prometheus.api("/api/v1/targets").get("activeTargets");
          List<String> states = new ArrayList<>();
          targets.forEach(t -> states.add(t.get("scrapeUrl").asText() + " "
              + t.get("health").asText() + " " + t.path("lastError").asText()));
          assertThat(states).hasSize(count).allSatisfy(s -> assertThat(s).contains(" up "));
        });
  }

  /** Each panel target's expression with the dashboard's variables set to this Etcd. */
  private static Map<String, String> panelQueries(JsonNode dashboard, String namespace) {
    Map<String, String> queries = new LinkedHashMap<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.get("targets")) {
        queries.put("panel '" + panel.get("title").asText() + "' " + target.get("refId")
            .asText(), target.get("expr").asText().replace("$etcd_namespace", namespace)
            .replace("$etcd", ETCD));
      }
    }
    return queries;
  }

  /**
   * The dashboard's query variables ({@code label_values(SELECTOR, LABEL)}) offer this Etcd's
   * namespace and name, as Grafana asks Prometheus' label values API for them.
   */
  private static void assertVariablesOfferThisEtcd(Prometheus prometheus, JsonNode dashboard,
      String namespace) {
    Map<String, String> expected = Map.of("etcd_namespace", namespace, "etcd", ETCD);
    java.util.regex.Pattern labelValues =
        java.util.regex.Pattern.compile("label_values\\((.+), *([a-z_]+)\\)");
    int checked = 0;
    for (JsonNode variable : dashboard.get("templating").get("list")) {
      if (!"query".equals(variable.get("type").asText())) {
        continue;
      }
      var m = labelValues.matcher(variable.get("definition").asText());
      assertThat(m.matches()).as(variable.get("definition").asText()).isTrue();
      String selector = m.group(1).replace("$etcd_namespace", namespace);
      JsonNode values = prometheus.api("/api/v1/label/" + m.group(2) + "/values?match%5B%5D="
          + java.net.URLEncoder.encode(selector, java.nio.charset.StandardCharsets.UTF_8));
      List<String> offered = new ArrayList<>();
      values.forEach(v -> offered.add(v.asText()));
      assertThat(offered).as(variable.get("name").asText()).contains(expected.get(m.group(2)));
      checked++;
    }
    assertThat(checked).isEqualTo(2);
  }

  /**
   * Every series selector of every alert expression, as Prometheus parses it: an alert whose
   * comparison holds only when something is wrong returns nothing on a healthy Etcd, but each
   * series it compares must be there, or the alert can never fire.
   */
  private static Map<String, String> alertSelectors(Prometheus prometheus) throws Exception {
    Map<String, String> selectors = new LinkedHashMap<>();
    JsonNode rules = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
        .readTree(chartFile("monitoring/alerts.yaml").toFile());
    for (JsonNode group : rules.get("groups")) {
      for (JsonNode rule : group.get("rules")) {
        String expr = rule.get("expr").asText();
        prometheus.query(expr); // evaluates without error
        List<String> found = new ArrayList<>();
        collectSelectors(prometheus.parse(expr), found);
        assertThat(found).as(rule.get("alert").asText()).isNotEmpty();
        for (String selector : found) {
          selectors.put("alert " + rule.get("alert").asText() + " " + selector, selector);
        }
      }
    }
    return selectors;
  }

  private static void collectSelectors(JsonNode node, List<String> into) {
    if (node == null || node.isNull()) {
      return;
    }
    String type = node.path("type").asText();
    if (type.equals("vectorSelector") || type.equals("matrixSelector")) {
      StringBuilder s = new StringBuilder("{");
      for (JsonNode m : node.get("matchers")) {
        if (s.length() > 1) {
          s.append(", ");
        }
        s.append(m.get("name").asText()).append(m.get("type").asText())
            .append(JSON.valueToTree(m.get("value").asText()).toString());
      }
      into.add(s.append('}').toString());
      return;
    }
    node.forEach(child -> {
      if (child.isContainerNode()) {
        collectSelectors(child, into);
      }
    });
  }

  /** At least one series with a value that is a number (NaN shows as no data in a panel). */
  private static boolean hasData(Prometheus prometheus, String query) {
    for (JsonNode series : prometheus.query(query)) {
      String value = series.get("value").get(1).asText();
      if (!value.equals("NaN")) {
        return true;
      }
    }
    return false;
  }

  private static Path chartFile(String path) {
    return ControlPlaneBinaries.repoRoot().resolve("charts/etcd-druid").resolve(path);
  }
}
