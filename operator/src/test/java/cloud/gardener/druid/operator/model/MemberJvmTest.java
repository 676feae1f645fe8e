package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

class MemberJvmTest {

  @Test
  void theMemberContainerSizesTheAgentsHeapToTheDeltaBufferNotToTheNode() {
    Etcd etcd = Etcds.etcd("etcd-main", 3);
    assertThat(javaToolOptions(etcd)).startsWith("-XX:+UseSerialGC ")
        .contains(" -Xmx148m ", " -XX:MaxMetaspaceSize=96m ")
        .doesNotContain("TieredStopAtLevel");

    etcd.getSpec().getBackup().setDeltaSnapshotMemoryLimit(new Quantity("100Mi"));
    assertThat(javaToolOptions(etcd)).contains(" -Xmx328m ");
  }

  @Test
  void anEtcdWithoutBackupGetsTheDefaultDeltaLimitsHeap() {
    Etcd etcd = Etcds.etcd("etcd-main", 1);
    etcd.getSpec().setBackup(null);
    assertThat(MemberJvm.options(etcd)).contains(" -Xmx148m ");
  }

  private static String javaToolOptions(Etcd etcd) {
    Container member = MemberPodBuilder.build(etcd, OperatorSettings.defaults(), 0).getSpec()
        .getContainers().get(0);
    return member.getEnv().stream().filter(e -> e.getName().equals(MemberJvm.ENV))
        .map(EnvVar::getValue).findFirst().orElseThrow();
  }
}
