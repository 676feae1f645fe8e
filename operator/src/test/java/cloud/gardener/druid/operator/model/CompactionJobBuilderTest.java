package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.SnapshotCompactionSpec;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.operator.testing.Etcds;
import cloud.gardener.druid.operator.testing.LocalStores;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompactionJobBuilderTest {

  final OperatorSettings settings = new OperatorSettings("example.org/druid:1", "/stores",
      CompactionSettings.enabled(1000, Duration.ofMinutes(45)));

  @Test
  void theJobCompactsTheEtcdsStoreOnceWithinTheDeadlineAsTheEtcdsServiceAccount() {
    Etcd etcd = Etcds.etcd("main", 3);
    etcd.getSpec().getBackup().getStore().setProvider(StorageProvider.AWS);
    etcd.getSpec().getBackup().getStore().setSecretRef(new SecretReference("s3-creds", null));
    etcd.getSpec().setAnnotations(Map.of("team", "a",
        "cluster-autoscaler.kubernetes.io/safe-to-evict", "false"));

    Job job = CompactionJobBuilder.build(etcd, settings);

    assertThat(job.getMetadata().getName()).isEqualTo("main-compactor");
    assertThat(job.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/component", "etcd-snapshot-compaction-job")
        .containsEntry("app.kubernetes.io/part-of", "main");
    assertThat(job.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("Etcd"));
    assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(2700L);
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    var pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getActiveDeadlineSeconds()).isEqualTo(2700L);
    assertThat(pod.getServiceAccountName()).isEqualTo("main");
    assertThat(job.getSpec().getTemplate().getMetadata().getAnnotations())
        .isEqualTo(Map.of("team", "a"));
    var container = pod.getContainers().get(0);
    assertThat(container.getImage()).isEqualTo("example.org/druid:1");
    assertThat(container.getArgs()).containsExactly("agent", "compact", "--etcd-name=main",
        "--data-dir=/var/etcd/data/compaction.etcd", "--etcd-version=3.6.16",
        "--enable-snapshot-lease-renewal=true",
        "--full-snapshot-lease-name=main-full-snap",
        "--delta-snapshot-lease-name=main-delta-snap",
        "--store-provider=S3", "--store-container=backups", "--store-prefix=ns/main",
        "--store-secret-dir=/var/etcd-backup/secret");
    assertThat(container.getResources().getRequests())
        .isEqualTo(Map.of("cpu", new Quantity("600m"), "memory", new Quantity("3Gi")));
    assertThat(pod.getVolumes()).extracting(v -> v.getName())
        .containsExactly("tmp", "etcd-workspace-dir", "store-secret");
    assertThat(pod.getSecurityContext()).as("restricted, as the members")
        .isEqualTo(PodSecurity.pod(false));
    assertThat(container.getSecurityContext()).isEqualTo(PodSecurity.container(false));
  }

  @Test
  void theJobRunsAsRootOnlyWhenTheEtcdsMembersDo() {
    Etcd etcd = Etcds.etcd("main", 1);
    etcd.getSpec().setRunAsRoot(true);
    var pod = CompactionJobBuilder.build(etcd, settings).getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext()).isEqualTo(PodSecurity.pod(true));
    assertThat(pod.getContainers().get(0).getSecurityContext())
        .isEqualTo(PodSecurity.container(true));
  }

  @Test
  void aLocalStoreIsMountedAndTheEtcdsResourcesWin() {
    Etcd etcd = Etcds.etcd("main", 1);
    etcd.getSpec().getBackup().getStore().setProvider(StorageProvider.LOCAL);
    SnapshotCompactionSpec compaction = new SnapshotCompactionSpec();
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(Map.of("memory", new Quantity("256Mi")));
    resources.setLimits(Map.of("memory", new Quantity("1Gi")));
    compaction.setResources(resources);
    etcd.getSpec().getBackup().setSnapshotCompaction(compaction);

    Job job = CompactionJobBuilder.build(etcd, settings);

    var pod = job.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().get(0);
    assertThat(container.getArgs()).contains("--store-provider=Local",
        "--store-container=/var/etcd-backup/local");
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("local-store"))
        .singleElement().satisfies(v ->
            assertThat(v.getHostPath().getPath())
                .isEqualTo(LocalStores.dir(settings, etcd).toString()));
    assertThat(container.getResources().getRequests())
        .isEqualTo(Map.of("cpu", new Quantity("600m"), "memory", new Quantity("256Mi")));
    assertThat(container.getResources().getLimits())
        .isEqualTo(Map.of("memory", new Quantity("1Gi")));
  }
}
