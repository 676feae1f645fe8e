package cloud.gardener.druid.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.api.v1alpha1.DefragmentConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTaskStatus;
import cloud.gardener.druid.operator.status.StatusWriter;
import cloud.gardener.druid.testenv.LocalCluster;
import cloud.gardener.druid.testenv.junit.LocalKubernetes;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.HashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The status writer's conflict policy against a real API server, no operator running: a
 * write decided from an object that changed since it was read gets a real 409.
 */
@LocalKubernetes
class StatusWriterIT {

  @BeforeAll
  static void installCrds(LocalCluster cluster) {
    OperatorHarness.installCrds(cluster.client());
  }

  @Test
  void aStatusDecidedBeforeAMetadataChangeIsWrittenOnTheFreshObject(KubernetesClient client) {
    EtcdOpsTask read = withStatus(client, create(client, "metadata-moved"), "Pending");
    annotate(client, "metadata-moved");

    EtcdOpsTask written = new StatusWriter(client).write(read, status("InProgress"));

    assertThat(written.getStatus().getState()).isEqualTo("InProgress");
    EtcdOpsTask stored = get(client, "metadata-moved");
    assertThat(stored.getStatus().getState()).isEqualTo("InProgress");
    assertThat(stored.getMetadata().getAnnotations()).containsEntry("touched", "yes");
  }

  @Test
  void aStatusDecidedBeforeAnotherWriteOfTheStatusIsNotWritten(KubernetesClient client) {
    EtcdOpsTask read = withStatus(client, create(client, "status-moved"), "Pending");
    writtenElsewhere(client, read, "Succeeded");

    assertThatThrownBy(() -> new StatusWriter(client).write(read, status("InProgress")))
        .isInstanceOf(StatusWriter.StaleStatusException.class)
        .hasMessageContaining("status-moved");
    assertThat(get(client, "status-moved").getStatus().getState()).isEqualTo("Succeeded");
  }

  @Test
  void aStatusDecidedAgainIsDecidedFromTheFreshObject(KubernetesClient client) {
    EtcdOpsTask read = withStatus(client, create(client, "decided-again"), "Pending");
    writtenElsewhere(client, read, "Succeeded");

    EtcdOpsTask written = new StatusWriter(client).decideAndWrite(read,
        t -> status(t.getStatus().getState() + "-seen"));

    assertThat(written.getStatus().getState()).isEqualTo("Succeeded-seen");
    assertThat(get(client, "decided-again").getStatus().getState()).isEqualTo("Succeeded-seen");
  }

  @Test
  void aStatusThatChangesNothingIsNotWritten(KubernetesClient client) {
    EtcdOpsTask read = withStatus(client, create(client, "unchanged"), "Pending");

    new StatusWriter(client).write(read, status("Pending"));

    assertThat(get(client, "unchanged").getMetadata().getResourceVersion())
        .isEqualTo(read.getMetadata().getResourceVersion());
  }

  private static EtcdOpsTask create(KubernetesClient client, String name) {
    ItSupport.createTask(client, name, "some-etcd", c -> c.setDefragment(new DefragmentConfig()),
        null);
    return get(client, name);
  }

  /** Gives the task a first status; the task as stored then, as a reconcile reads it. */
  private static EtcdOpsTask withStatus(KubernetesClient client, EtcdOpsTask task,
      String state) {
    EtcdOpsTask copy = Serialization.clone(task);
    copy.setStatus(status(state));
    return client.resource(copy).updateStatus();
  }

  /** Another writer's status: another replica's, or our own write the cache did not show. */
  private static void writtenElsewhere(KubernetesClient client, EtcdOpsTask read, String state) {
    withStatus(client, read, state);
  }

  private static void annotate(KubernetesClient client, String name) {
    client.resources(EtcdOpsTask.class).withName(name).edit(t -> {
      t.getMetadata().setAnnotations(new HashMap<>());
      t.getMetadata().getAnnotations().put("touched", "yes");
      return t;
    });
  }

  private static EtcdOpsTask get(KubernetesClient client, String name) {
    return client.resources(EtcdOpsTask.class).withName(name).get();
  }

  private static EtcdOpsTaskStatus status(String state) {
    EtcdOpsTaskStatus s = new EtcdOpsTaskStatus();
    s.setState(state);
    return s;
  }
}
