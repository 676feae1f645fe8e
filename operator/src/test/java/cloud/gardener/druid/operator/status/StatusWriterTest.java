package cloud.gardener.druid.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The conflict policy's decision; {@code StatusWriterIT} provokes real conflicts. */
class StatusWriterTest {

  @Test
  void afterAConflictOnlyInMetadataTheWriteGoesAgainOnTheFreshObject() {
    EtcdOpsTask read = task("7", "Pending");
    EtcdOpsTask fresh = task("8", "Pending");
    fresh.getMetadata().setFinalizers(List.of("druid.gardener.cloud/etcdopstask"));
    fresh.getMetadata().setAnnotations(Map.of("touched", "yes"));
    assertThat(StatusWriter.writeAgainOn(read, fresh)).containsSame(fresh);
  }

  @Test
  void afterAConflictWithAChangedStatusTheDecisionIsStale() {
    assertThat(StatusWriter.writeAgainOn(task("7", "Pending"), task("8", "InProgress")))
        .isEmpty();
  }

  @Test
  void afterAConflictWithTheObjectGoneTheDecisionIsStale() {
    assertThat(StatusWriter.writeAgainOn(task("7", "Pending"), null)).isEmpty();
  }

  @Test
  void aStatusThatChangesNothingIsNotWritten() {
    EtcdOpsTask read = task("7", "Pending");
    // no client: a write that would change nothing must not reach the API server
    assertThat(new StatusWriter(null).write(read, status("Pending"))).isSameAs(read);
  }

  private static EtcdOpsTask task(String resourceVersion, String state) {
    EtcdOpsTask t = new EtcdOpsTask();
    t.setMetadata(new ObjectMetaBuilder().withName("t").withNamespace("ns")
        .withResourceVersion(resourceVersion).build());
    t.setStatus(status(state));
    return t;
  }

  private static EtcdOpsTaskStatus status(String state) {
    EtcdOpsTaskStatus s = new EtcdOpsTaskStatus();
    s.setState(state);
    return s;
  }
}
