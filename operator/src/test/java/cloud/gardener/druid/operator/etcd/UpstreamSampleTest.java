package cloud.gardener.druid.operator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Upstream's sample Etcd (examples/etcd-upstream-sample.yaml) passes our spec validation. */
class UpstreamSampleTest {

  static Etcd sample() throws Exception {
    Path file = Path.of(System.getProperty("druid.repoRoot", ".."), "examples",
        "etcd-upstream-sample.yaml");
    return Serialization.unmarshal(Files.readString(file), Etcd.class);
  }

  @Test
  void upstreamSampleHasNoProblems() throws Exception {
    Etcd etcd = sample();
    assertThat(etcd.getSpec().getBackup().getFullSnapshotSchedule().text())
        .isEqualTo("0 */24 * * *");
    assertThat(etcd.getSpec().getEtcd().getDefragmentationSchedule().text())
        .isEqualTo("0 */24 * * *");
    assertThat(SpecValidation.syntax(etcd)).isEmpty();
    assertThat(SpecValidation.secrets(etcd)).as("the sample references no Secret").isEmpty();
  }
}
