package cloud.gardener.druid.images;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.testenv.controlplane.ControlPlaneBinaries;
import cloud.gardener.druid.testenv.helm.Helm;
import cloud.gardener.druid.testenv.prometheus.Prometheus;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's monitoring pack as {@code helm template} renders it, checked by the real
 * {@code promtool} (testenv/prometheus/build.sh): {@code check rules} on the PrometheusRule's
 * rules, and {@code test rules} with the unit tests in {@code src/test/resources/monitoring}
 * (synthetic series: each alert fires when it should and stays quiet when it should not).
 * That the expressions find data on a running Etcd is PrometheusMonitoringIT's (operator).
 */
class MonitoringRulesIT {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final List<String> UNIT_TESTS =
      List.of("alerts-test-minutes.yaml", "alerts-test-hours.yaml");

  @TempDir
  Path dir;

  @Test
  void theRenderedRulesAreTheChartsRuleFileAndPassPromtoolsCheck() throws Exception {
    JsonNode rules = renderedRules();
    assertThat(rules).isEqualTo(YAML.readTree(chartFile("monitoring/alerts.yaml").toFile()));

    String check = Prometheus.promtool(dir, "check", "rules", "--lint=all", "--lint-fatal",
        "rules.yaml").orThrow().output();
    assertThat(check).contains("SUCCESS: " + alertRules(rules).size() + " rules found");
  }

  @Test
  void everyAlertFiresInItsUnitTestsAndStaysQuietWhereItShouldNot() throws Exception {
    JsonNode rules = renderedRules();
    Set<String> alerts = new TreeSet<>(alertRules(rules).stream()
        .map(r -> r.get("alert").asText()).toList());
    Set<String> fired = new HashSet<>();
    Set<String> quiet = new HashSet<>();
    List<String> args = new ArrayList<>(List.of("test", "rules"));
    for (String name : UNIT_TESTS) {
      try (InputStream in = getClass().getResourceAsStream("/monitoring/" + name)) {
        Files.copy(in, dir.resolve(name));
      }
      for (JsonNode test : YAML.readTree(dir.resolve(name).toFile()).get("tests")) {
        for (JsonNode c : test.get("alert_rule_test")) {
          (c.path("exp_alerts").isEmpty() ? quiet : fired).add(c.get("alertname").asText());
        }
      }
      args.add(name);
    }
    assertThat(fired).as("alerts with a test case in which they fire")
        .containsExactlyInAnyOrderElementsOf(alerts);
    assertThat(quiet).as("alerts with a test case in which they stay quiet")
        .containsExactlyInAnyOrderElementsOf(alerts);

    Prometheus.Result result = Prometheus.promtool(dir, args.toArray(String[]::new));
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }

  @Test
  void everyAlertLinksItsEntryInTheMonitoringDoc() throws Exception {
    String doc = Files.readString(ControlPlaneBinaries.repoRoot().resolve("docs/monitoring.md"));
    for (JsonNode rule : alertRules(renderedRules())) {
      String alert = rule.get("alert").asText();
      String anchor = alert.toLowerCase(java.util.Locale.ROOT);
      assertThat(rule.get("annotations").get("runbook").asText()).as(alert)
          .isEqualTo("docs/monitoring.md#" + anchor);
      assertThat(doc).as(alert).contains("<a id=\"" + anchor + "\"></a>`" + alert + "`");
      assertThat(rule.get("labels").get("severity").asText()).as(alert)
          .isIn("critical", "warning");
    }
  }

  @Test
  void eachPartIsOffByDefaultAndRendersWhenEnabled() throws Exception {
    assertThat(render()).noneMatch(doc -> doc.path("apiVersion").asText()
        .startsWith("monitoring.coreos.com") || doc.path("metadata").path("name").asText()
        .endsWith("-dashboard"));

    Map<String, JsonNode> objects = render("--set", "monitoring.serviceMonitor.enabled=true",
        "--set", "monitoring.podMonitor.enabled=true",
        "--set", "monitoring.grafanaDashboard.enabled=true").stream()
        .collect(Collectors.toMap(d -> d.get("kind").asText() + "/"
            + d.get("metadata").get("name").asText(), d -> d));
    JsonNode pods = objects.get("PodMonitor/r-etcd-druid-members").get("spec");
    assertThat(pods.get("selector").get("matchLabels").toString())
        .contains("\"app.kubernetes.io/managed-by\":\"etcd-druid\"")
        .contains("\"app.kubernetes.io/component\":\"etcd-member\"");
    assertThat(pods.get("podMetricsEndpoints")).extracting(e -> e.get("port").asText()
        + " " + e.get("scheme").asText()).containsExactly("client http", "agent https");
    for (JsonNode endpoint : pods.get("podMetricsEndpoints")) {
      assertThat(endpoint.get("relabelings")).extracting(r -> r.get("targetLabel").asText())
          .contains("etcd_namespace", "etcd", "pod");
    }
    JsonNode operator = objects.get("ServiceMonitor/r-etcd-druid").get("spec");
    assertThat(operator.get("endpoints").get(0).get("port").asText()).isEqualTo("metrics");
    JsonNode dashboard = objects.get("ConfigMap/r-etcd-druid-dashboard");
    assertThat(dashboard.get("metadata").get("labels").get("grafana_dashboard").asText())
        .isEqualTo("1");
    assertThat(new ObjectMapper().readTree(dashboard.get("data").get("etcd-druid.json")
        .asText())).isEqualTo(new ObjectMapper().readTree(
            chartFile("monitoring/dashboard.json").toFile()));
  }

  /** The PrometheusRule's spec, written to {@code rules.yaml} in the temp dir. */
  private JsonNode renderedRules() throws IOException {
    JsonNode rule = render("--set", "monitoring.prometheusRule.enabled=true").stream()
        .filter(d -> "PrometheusRule".equals(d.path("kind").asText())).findFirst()
        .orElseThrow();
    JsonNode spec = rule.get("spec");
    YAML.writeValue(dir.resolve("rules.yaml").toFile(), spec);
    return spec;
  }

  private static List<JsonNode> alertRules(JsonNode rules) {
    List<JsonNode> alerts = new ArrayList<>();
    for (JsonNode group : rules.get("groups")) {
      group.get("rules").forEach(alerts::add);
    }
    return alerts;
  }

  private List<JsonNode> render(String... sets) throws IOException {
    List<String> args = new ArrayList<>(List.of("template", "r", Helm.chart().toString(),
        "--namespace", "ops"));
    args.addAll(Arrays.asList(sets));
    String yaml = new Helm(dir.resolve("helm"), null).run(args.toArray(String[]::new)).orThrow()
        .output();
    List<JsonNode> docs = new ArrayList<>();
    for (String doc : yaml.split("(?m)^---\\s*$")) {
      if (doc.contains("kind:")) {
        docs.add(YAML.readTree(doc));
      }
    }
    return docs;
  }

  private static Path chartFile(String path) {
    return ControlPlaneBinaries.repoRoot().resolve("charts/etcd-druid").resolve(path);
  }
}
