package cloud.gardener.druid.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CRDs committed under charts/etcd-druid/crds are exactly what the build generates.
 * Run with {@code -Ddruid.updateCrds=true} to rewrite the committed copies after an API change.
 */
class CrdDriftTest {

  static final Path CHART_CRDS = RepoRoot.path().resolve("charts/etcd-druid/crds");

  @Test
  void committedCrdsMatchGeneratedOnes() throws IOException {
    boolean update = Boolean.getBoolean("druid.updateCrds");
    for (String resource : Crds.RESOURCES) {
      String generated = Crds.yaml(resource);
      Path committed = CHART_CRDS.resolve(Path.of(resource).getFileName().toString()
          .replace("-v1.yml", ".yaml"));
      if (update) {
        Files.createDirectories(CHART_CRDS);
        Files.writeString(committed, generated, StandardCharsets.UTF_8);
      }
      assertThat(committed).as("committed CRD " + committed).exists();
      assertThat(Files.readString(committed, StandardCharsets.UTF_8))
          .as("%s differs from the generated CRD; run `mvn -pl api verify -Ddruid.updateCrds=true`"
              + " and commit the result", committed)
          .isEqualTo(generated);
    }
  }
}
