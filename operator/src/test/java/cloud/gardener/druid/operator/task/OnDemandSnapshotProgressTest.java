package cloud.gardener.druid.operator.task;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.agent.SnapshotProgress;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OnDemandSnapshotProgressTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void theLineNamesTheKindTheMemberAndTheBytesOfTheEstimatedTotal() {
    assertThat(OnDemandSnapshotOperation.progressLine(
        new SnapshotProgress("full", 120L << 20, 512L << 20, T0.toString(), true), "etcd-main-0"))
        .isEqualTo("full snapshot by the agent of etcd-main-0: 120.0 MiB of ~512.0 MiB");
    assertThat(OnDemandSnapshotOperation.progressLine(
        new SnapshotProgress("delta", 2048, 0, T0.toString(), true), "etcd-main-1"))
        .isEqualTo("delta snapshot by the agent of etcd-main-1: 2.0 KiB");
  }
}
