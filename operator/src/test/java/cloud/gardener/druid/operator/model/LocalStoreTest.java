package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The host directory of a Local store: one per namespace and container unless shared. */
class LocalStoreTest {

  final OperatorSettings perNamespace = new OperatorSettings("example.org/druid:1", "/stores");
  final OperatorSettings shared = new OperatorSettings("example.org/druid:1", "/stores",
      CompactionSettings.DISABLED, LocalStoreLayout.SHARED);

  @Test
  void etcdsOfTwoNamespacesWithTheSameContainerAndPrefixGetTwoHostDirectories() {
    Etcd a = tenant("team-a");
    Etcd b = tenant("team-b");

    assertThat(memberStore(a, perNamespace)).isEqualTo("/stores/team-a/backups");
    assertThat(memberStore(b, perNamespace)).isEqualTo("/stores/team-b/backups");
  }

  @Test
  void theSharedLayoutKeepsOneDirectoryPerContainerAsUpstream() {
    assertThat(memberStore(tenant("team-a"), shared)).isEqualTo("/stores/backups");
    assertThat(memberStore(tenant("team-b"), shared)).isEqualTo("/stores/backups");
  }

  @Test
  void anEmptyContainerIsTheNamespacesDefaultDirectory() {
    Etcd etcd = tenant("team-a");
    etcd.getSpec().getBackup().getStore().setContainer("");
    assertThat(memberStore(etcd, perNamespace)).isEqualTo("/stores/team-a/default");
    assertThat(memberStore(etcd, shared)).isEqualTo("/stores/default");
  }

  @Test
  void compactionAndCopyJobsMountTheDirectoryOfTheirOwnNamespace() {
    OperatorSettings settings = new OperatorSettings("example.org/druid:1", "/stores",
        CompactionSettings.enabled(1000, Duration.ofMinutes(45)));
    Etcd etcd = tenant("team-a");
    PodSpec compaction = CompactionJobBuilder.build(etcd, settings).getSpec().getTemplate()
        .getSpec();
    assertThat(hostPath(compaction, "local-store")).isEqualTo(memberStore(etcd, settings));

    EtcdCopyBackupsTask task = CopyBackupsJobBuilderTest.task(
        CopyBackupsJobBuilderTest.store(StorageProvider.LOCAL, "backups", "team-a/old", null,
            null),
        CopyBackupsJobBuilderTest.store(StorageProvider.LOCAL, "", "team-a/new", null, null));
    task.getMetadata().setNamespace("team-b");
    PodSpec copy = CopyBackupsJobBuilder.build(task, settings).getSpec().getTemplate().getSpec();
    assertThat(hostPath(copy, "source-local-store")).isEqualTo("/stores/team-b/backups");
    assertThat(hostPath(copy, "target-local-store")).isEqualTo("/stores/team-b/default");
  }

  @Test
  void withoutANamespaceThePerNamespaceDirectoryIsRefusedNamingTheField() {
    Etcd etcd = tenant(null);
    assertThatThrownBy(() -> MemberPodBuilder.build(etcd, perNamespace, 0))
        .hasMessageContaining("metadata.namespace");
  }

  @Test
  void theLayoutIsReadFromItsFlagValue() {
    assertThat(LocalStoreLayout.of("per-namespace")).isEqualTo(LocalStoreLayout.PER_NAMESPACE);
    assertThat(LocalStoreLayout.of("shared")).isEqualTo(LocalStoreLayout.SHARED);
    assertThatThrownBy(() -> LocalStoreLayout.of("per-tenant"))
        .hasMessageContaining("per-tenant").hasMessageContaining("per-namespace, shared");
  }

  private static Etcd tenant(String namespace) {
    Etcd etcd = Etcds.etcd("tenant", 1);
    etcd.getMetadata().setNamespace(namespace);
    etcd.getSpec().getBackup().getStore().setProvider(StorageProvider.LOCAL);
    etcd.getSpec().getBackup().getStore().setPrefix("shared/tenant");
    return etcd;
  }

  private static String memberStore(Etcd etcd, OperatorSettings settings) {
    return hostPath(MemberPodBuilder.build(etcd, settings, 0).getSpec(), "local-store");
  }

  private static String hostPath(PodSpec pod, String volume) {
    return pod.getVolumes().stream().filter(v -> v.getName().equals(volume)).findFirst()
        .orElseThrow().getHostPath().getPath();
  }
}
