package cloud.gardener.druid.devtools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator's JVM flags as the Helm chart's default values give them: {@code jvm.options}
 * (JAVA_TOOL_OPTIONS in the pod) plus {@code -XX:MaxRAM} of {@code resources.limits.memory},
 * so that a share of RAM such as {@code MaxRAMPercentage} means the same outside a container
 * as inside one.
 */
final class ChartJvmOptions {

  static final Path VALUES = Path.of("charts", "etcd-druid", "values.yaml");

  private ChartJvmOptions() {
  }

  /** From {@code charts/etcd-druid/values.yaml} under {@code repoRoot}. */
  static List<String> fromChart(Path repoRoot) {
    Path values = repoRoot.resolve(VALUES);
    if (!Files.isRegularFile(values)) {
      throw new IllegalArgumentException(values + " not found: run from the repository (or"
          + " -Ddruid.repoRoot) or give --operator-jvm-options");
    }
    try {
      return fromValues(Files.readString(values));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> fromValues(String yaml) {
    JsonNode root;
    try {
      root = new ObjectMapper(new YAMLFactory()).readTree(yaml);
    } catch (IOException e) {
      throw new IllegalArgumentException("chart values are not YAML: " + e.getMessage(), e);
    }
    List<String> flags = new ArrayList<>();
    String options = root.path("jvm").path("options").asText("").trim();
    if (!options.isEmpty()) {
      flags.addAll(List.of(options.split("\\s+")));
    }
    String limit = root.path("resources").path("limits").path("memory").asText("");
    if (!limit.isEmpty()) {
      flags.add("-XX:MaxRAM=" + Quantity.getAmountInBytes(new Quantity(limit)).toBigInteger());
    }
    return flags;
  }
}
