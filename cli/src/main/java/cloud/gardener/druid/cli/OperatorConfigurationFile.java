package cloud.gardener.druid.cli;

import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.cli.shared.UserError;
import cloud.gardener.druid.operator.LeaderElection;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import picocli.CommandLine.ParseResult;

/**
 * Upstream's {@code OperatorConfiguration} file ({@code --config}): the fields this operator
 * has an option for set that option unless it is given on the command line; the fields it
 * has none for are accepted and named at start; an unknown field is refused, naming it.
 */
final class OperatorConfigurationFile {

  static final String API_VERSION = "operator.config.druid.gardener.cloud/v1alpha1";
  static final String KIND = "OperatorConfiguration";

  /** A field of the file, the option it stands for, and how it sets it. */
  private record Mapping(String field, String option,
      BiConsumer<OperatorCommand, JsonNode> apply) {
  }

  private static final List<Mapping> MAPPINGS = List.of(
      new Mapping("leaderElection.enabled", "--leader-election",
          (c, v) -> c.leaderElection = bool(v)),
      new Mapping("leaderElection.leaseDuration", LeaderElection.Timing.LEASE_DURATION_FLAG,
          (c, v) -> c.leaseDuration = duration(v)),
      new Mapping("leaderElection.renewDeadline", LeaderElection.Timing.RENEW_DEADLINE_FLAG,
          (c, v) -> c.renewDeadline = duration(v)),
      new Mapping("leaderElection.retryPeriod", LeaderElection.Timing.RETRY_PERIOD_FLAG,
          (c, v) -> c.retryPeriod = duration(v)),
      new Mapping("server.metrics.bindAddress", "--metrics-address",
          (c, v) -> c.metricsAddress = v.asText()),
      new Mapping("server.metrics.port", "--metrics-port", (c, v) -> c.metricsPort = integer(v)),
      new Mapping("server.webhooks.bindAddress", "--webhook-server-bind-address",
          (c, v) -> c.webhook.bindAddress = v.asText()),
      new Mapping("server.webhooks.port", "--webhook-server-port",
          (c, v) -> c.webhook.port = integer(v)),
      new Mapping("controllers.etcd.enableEtcdSpecAutoReconcile",
          "--enable-etcd-spec-auto-reconcile", (c, v) -> c.autoReconcile = bool(v)),
      new Mapping("controllers.compaction.enabled", "--enable-backup-compaction",
          (c, v) -> c.enableCompaction = bool(v)),
      new Mapping("controllers.compaction.eventsThreshold", "--etcd-events-threshold",
          (c, v) -> c.eventsThreshold = whole(v)),
      new Mapping("controllers.compaction.triggerFullSnapshotThreshold",
          "--trigger-full-snapshot-threshold", (c, v) -> c.fullSnapshotThreshold = whole(v)),
      new Mapping("controllers.compaction.activeDeadlineDuration", "--active-deadline-duration",
          (c, v) -> c.activeDeadline = duration(v)),
      new Mapping("webhooks.etcdComponentProtection.enabled",
          "--enable-etcd-components-webhook", (c, v) -> c.webhook.enabled = bool(v)),
      new Mapping("webhooks.etcdComponentProtection.exemptServiceAccounts",
          "--etcd-components-webhook-exempt-service-accounts",
          (c, v) -> c.webhook.exempt = strings(v)));

  /** Upstream's fields without a meaning here (prefixes). */
  static final List<String> NOT_ACTED_ON = List.of("clientConnection",
      "leaderElection.resourceLock", "leaderElection.resourceName", "server.webhooks.serverCertDir",
      "controllers.disableLeaseCache", "controllers.etcd.concurrentSyncs",
      "controllers.etcd.disableEtcdServiceAccountAutomount",
      "controllers.etcd.etcdStatusSyncPeriod", "controllers.etcd.etcdMember",
      "controllers.compaction.concurrentSyncs", "controllers.compaction.metricsScrapeWaitDuration",
      "controllers.etcdCopyBackupsTask", "controllers.secret", "controllers.etcdOpsTask",
      "webhooks.etcdComponentProtection.reconcilerServiceAccountFQDN",
      "webhooks.etcdComponentProtection.serviceAccountInfo", "featureGates", "logging");

  private OperatorConfigurationFile() {
  }

  /**
   * Sets {@code command}'s options from {@code file} where the command line did not; returns
   * the fields accepted but not acted on.
   */
  static List<String> apply(Path file, OperatorCommand command, ParseResult parsed) {
    JsonNode root;
    try {
      root = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
    } catch (IOException e) {
      throw new UserError("--config " + file + ": not readable YAML: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new UserError("--config " + file + ": not an OperatorConfiguration");
    }
    if (!API_VERSION.equals(root.path("apiVersion").asText())
        || !KIND.equals(root.path("kind").asText())) {
      throw new UserError("--config " + file + ": apiVersion must be " + API_VERSION
          + " and kind " + KIND);
    }
    List<String> ignored = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      if (!f.getKey().equals("apiVersion") && !f.getKey().equals("kind")) {
        walk(file, f.getKey(), f.getValue(), command, parsed, ignored);
      }
    }
    return ignored;
  }

  private static void walk(Path file, String field, JsonNode value, OperatorCommand command,
      ParseResult parsed, List<String> ignored) {
    if (NOT_ACTED_ON.stream().anyMatch(p -> field.equals(p) || field.startsWith(p + "."))) {
      ignored.add(field);
      return;
    }
    for (Mapping m : MAPPINGS) {
      if (m.field().equals(field)) {
        if (!parsed.hasMatchedOption(m.option())) {
          try {
            m.apply().accept(command, value);
          } catch (IllegalArgumentException e) {
            throw new UserError("--config " + file + ": " + field + ": " + e.getMessage());
          }
        }
        return;
      }
    }
    if (!value.isObject()) {
      throw new UserError("--config " + file + ": unknown field " + field);
    }
    Iterator<Map.Entry<String, JsonNode>> children = value.fields();
    while (children.hasNext()) {
      Map.Entry<String, JsonNode> c = children.next();
      walk(file, field + "." + c.getKey(), c.getValue(), command, parsed, ignored);
    }
  }

  private static boolean bool(JsonNode v) {
    if (!v.isBoolean()) {
      throw new IllegalArgumentException("must be true or false, not " + v);
    }
    return v.asBoolean();
  }

  private static int integer(JsonNode v) {
    if (!v.canConvertToInt() || !v.isIntegralNumber()) {
      throw new IllegalArgumentException("must be a whole number, not " + v);
    }
    return v.asInt();
  }

  private static long whole(JsonNode v) {
    if (!v.isIntegralNumber()) {
      throw new IllegalArgumentException("must be a whole number, not " + v);
    }
    return v.asLong();
  }

  private static Duration duration(JsonNode v) {
    return GoDuration.parse(v.asText()).toDuration();
  }

  private static List<String> strings(JsonNode v) {
    if (!v.isArray()) {
      throw new IllegalArgumentException("must be a list, not " + v);
    }
    List<String> out = new ArrayList<>();
    v.forEach(e -> out.add(e.asText()));
    return out;
  }
}
