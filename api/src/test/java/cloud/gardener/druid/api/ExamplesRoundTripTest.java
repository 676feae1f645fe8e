package cloud.gardener.druid.api;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every sample manifest reads into our classes and writes back without losing or adding a field. */
class ExamplesRoundTripTest {

  static final Map<String, Class<?>> KINDS = Map.of(
      "Etcd", Etcd.class, "EtcdOpsTask", EtcdOpsTask.class,
      "EtcdCopyBackupsTask", EtcdCopyBackupsTask.class);

  static Stream<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(RepoRoot.path().resolve("examples"))) {
      return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void roundTripsWithoutLoss(Path example) throws IOException {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    JsonNode original = yaml.readTree(example.toFile());
    Class<?> type = KINDS.get(original.get("kind").asText());
    assertThat(type).as("kind of " + example).isNotNull();

    Object parsed = Serialization.unmarshal(Files.readString(example), type);
    // re-read the written text so that numbers compare by value, not by Java type
    JsonNode written = yaml.readTree(Serialization.asJson(parsed));

    assertThat(written).as("round trip of " + example).isEqualTo(original);
  }
}
