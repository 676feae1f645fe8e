package cloud.gardener.druid.operator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventRecorderTest {

  private static final Instant AT = Instant.parse("2026-12-01T15:30:01.123456Z");

  @Test
  void anEventOnAnEtcdNamesItTheReplicaThatActedAndTheTime() {
    Etcd etcd = Etcds.etcd("main", 3);
    Event e = EventRecorder.event(etcd, "Normal", "MemberUpdating", "updating main-1",
        "replica-a", AT);
    assertThat(e.getMetadata().getName()).startsWith("main.");
    assertThat(e.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("druid.gardener.cloud/v1alpha1");
    assertThat(e.getInvolvedObject().getKind()).isEqualTo("Etcd");
    assertThat(e.getInvolvedObject().getName()).isEqualTo("main");
    assertThat(e.getInvolvedObject().getUid()).isEqualTo("uid-main");
    assertThat(e.getType()).isEqualTo("Normal");
    assertThat(e.getReason()).isEqualTo("MemberUpdating");
    assertThat(e.getAction()).isEqualTo("MemberUpdating");
    assertThat(e.getMessage()).isEqualTo("updating main-1");
    assertThat(e.getReportingComponent()).isEqualTo("etcd-druid");
    assertThat(e.getReportingInstance()).isEqualTo("replica-a");
    assertThat(e.getEventTime().getTime()).isEqualTo("2026-12-01T15:30:01.123456Z");
    assertThat(e.getFirstTimestamp()).isEqualTo("2026-12-01T15:30:01Z");
    assertThat(e.getCount()).isEqualTo(1);
  }

  @Test
  void anEventOnATaskNamesTheTaskKind() {
    EtcdOpsTask task = new EtcdOpsTask();
    task.setMetadata(new ObjectMetaBuilder().withName("defrag").withNamespace("ns")
        .withUid("uid-defrag").build());
    Event e = EventRecorder.event(task, "Warning", "Rejected", "spec.etcdName: not found",
        "replica-a", AT);
    assertThat(e.getInvolvedObject().getKind()).isEqualTo("EtcdOpsTask");
    assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("druid.gardener.cloud/v1alpha1");
    assertThat(e.getInvolvedObject().getName()).isEqualTo("defrag");
    assertThat(e.getType()).isEqualTo("Warning");
  }

  @Test
  void aMessageLongerThanTheApiServerTakesIsCut() {
    Event e = EventRecorder.event(Etcds.etcd("main", 1), "Warning", "Failed", "x".repeat(5000),
        "replica-a", AT);
    assertThat(e.getMessage()).hasSize(EventRecorder.MAX_MESSAGE).endsWith("...");
  }

  @Test
  void anEventThatCannotBeRecordedDoesNotFailTheCaller() {
    // nothing listens on port 1 of the loopback address
    try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(
        new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(2000).build()).build()) {
      EventRecorder recorder = new EventRecorder(unreachable, "replica-a");
      assertThatCode(() -> {
        recorder.normal(Etcds.etcd("main", 1), "MembersCreated", "created main-0");
        recorder.warning(Etcds.etcd("main", 1), "NoFinalSnapshot", "no ready leader");
      }).doesNotThrowAnyException();
    }
  }
}
