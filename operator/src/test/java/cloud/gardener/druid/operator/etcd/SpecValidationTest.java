package cloud.gardener.druid.operator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.testing.Etcds;
import org.junit.jupiter.api.Test;

class SpecValidationTest {

  @Test
  void outOfRangeCronIsNamedWithItsField() {
    Etcd etcd = Etcds.etcd("e", 1);
    etcd.getSpec().getBackup().setFullSnapshotSchedule(CronSchedule.parse("61 * * * *"));
    assertThat(SpecValidation.syntax(etcd)).singleElement().satisfies(p -> {
      assertThat(p.code()).isEqualTo("ERR_INVALID_SPEC");
      assertThat(p.description()).startsWith("spec.backup.fullSnapshotSchedule: '61 * * * *'");
    });
  }

  @Test
  void validSpecHasNoProblems() {
    assertThat(SpecValidation.syntax(Etcds.etcd("e", 3))).isEmpty();
  }
}
