package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTaskSpec;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.api.v1alpha1.WaitForFinalSnapshotSpec;
import cloud.gardener.druid.operator.testing.LocalStores;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CopyBackupsJobBuilderTest {

  final OperatorSettings settings = new OperatorSettings("example.org/druid:1", "/stores");

  @Test
  void jobRunsTheAgentsCopyWithTheTargetAsStoreAndTheSourcePrefixed() {
    EtcdCopyBackupsTask task = task(store(StorageProvider.LOCAL, "backups", "ns/etcd-main", null,
        null), store(StorageProvider.AWS, "bucket", "ns/etcd-main-copy", "http://127.0.0.1:9000",
        "s3-credentials"));
    task.getSpec().setMaxBackupAge(7);
    task.getSpec().setMaxBackups(3);
    WaitForFinalSnapshotSpec wait = new WaitForFinalSnapshotSpec();
    wait.setEnabled(true);
    wait.setTimeout(GoDuration.parse("10m"));
    task.getSpec().setWaitForFinalSnapshot(wait);

    Job job = CopyBackupsJobBuilder.build(task, settings);

    assertThat(job.getMetadata().getName()).isEqualTo("copy-worker");
    assertThat(job.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(job.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("EtcdCopyBackupsTask");
      assertThat(o.getName()).isEqualTo("copy");
      assertThat(o.getUid()).isEqualTo("uid-1");
      assertThat(o.getController()).isTrue();
    });
    var pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getRestartPolicy()).isEqualTo("OnFailure");
    var container = pod.getContainers().get(0);
    assertThat(container.getImage()).isEqualTo("example.org/druid:1");
    assertThat(container.getArgs()).containsExactly("agent", "copy", "--namespace=ns",
        "--store-provider=S3",
        "--store-container=bucket",
        "--store-prefix=ns/etcd-main-copy",
        "--store-endpoint-override=http://127.0.0.1:9000",
        "--store-secret-dir=/var/etcd-backup/target-secret",
        "--source-store-provider=Local",
        "--source-store-container=/var/etcd-backup/source-local",
        "--source-store-prefix=ns/etcd-main",
        "--max-backup-age=7",
        "--max-backups-to-copy=3",
        "--wait-for-final-snapshot=true",
        "--wait-for-final-snapshot-timeout=10m");
    assertThat(pod.getVolumes()).anySatisfy(v -> {
      assertThat(v.getName()).isEqualTo("source-local-store");
      assertThat(v.getHostPath().getPath())
          .isEqualTo(LocalStores.dir(settings, "ns", "backups").toString());
    }).anySatisfy(v -> {
      assertThat(v.getName()).isEqualTo("target-store-secret");
      assertThat(v.getSecret().getSecretName()).isEqualTo("s3-credentials");
    }).anySatisfy(v -> assertThat(v.getEmptyDir()).isNotNull()).hasSize(3);
    assertThat(container.getVolumeMounts()).extracting(m -> m.getMountPath())
        .containsExactlyInAnyOrder("/var/etcd-backup/source-local",
            "/var/etcd-backup/target-secret", "/tmp");
    assertThat(container.getPorts()).as("where the copy serves how far it is")
        .singleElement().satisfies(p -> {
          assertThat(p.getName()).isEqualTo("progress");
          assertThat(p.getContainerPort()).isEqualTo(8090);
        });
    assertThat(container.getEnv()).singleElement().satisfies(e -> {
      assertThat(e.getName()).isEqualTo("POD_IP");
      assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("status.podIP");
    });
  }

  @Test
  void copyPodRunsRestrictedWithoutAnApiToken() {
    Job job = CopyBackupsJobBuilder.build(task(store(StorageProvider.AWS, "a", "p", null, "s"),
        store(StorageProvider.AWS, "b", "q", null, "s")), settings);
    var pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext()).isEqualTo(PodSecurity.pod(false));
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getContainers().get(0).getSecurityContext())
        .isEqualTo(PodSecurity.container(false));
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
  }

  @Test
  void podLabelsAreAddedButNeverReplaceOurs() {
    EtcdCopyBackupsTask task = task(store(null, "a", "p", null, null),
        store(null, "b", "q", null, null));
    task.getSpec().setPodLabels(Map.of("team", "platform", Labels.MANAGED_BY, "someone-else"));
    Job job = CopyBackupsJobBuilder.build(task, settings);
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry("team", "platform")
        .containsEntry(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE)
        .containsEntry(Labels.COMPONENT, CopyBackupsJobBuilder.COMPONENT);
    assertThat(job.getMetadata().getLabels()).doesNotContainKey("team");
    assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .as("without filters every backup is copied, without waiting")
        .noneMatch(a -> a.startsWith("--max-") || a.startsWith("--wait-"));
  }

  @Test
  void storesThisAgentCannotReachAreNamedByField() {
    EtcdCopyBackupsTask task = task(store(StorageProvider.OPENSTACK, "a", "p", null, null),
        store(StorageProvider.S3, null, "", null, null));
    assertThat(CopyBackupsJobBuilder.unsupported(task.getSpec())).containsExactly(
        "spec.sourceStore.provider: openstack (OpenStack Swift) has no backup store in this "
            + "operator; supported: " + StoreProviders.supported(),
        "spec.targetStore.prefix: required",
        "spec.targetStore.container: required (the bucket or container)");
    assertThat(CopyBackupsJobBuilder.unsupported(task(store(null, null, "p", null, null),
        store(StorageProvider.AWS, "b", "q", null, null)).getSpec())).isEmpty();
  }

  static EtcdCopyBackupsTask task(StoreSpec source, StoreSpec target) {
    EtcdCopyBackupsTask task = new EtcdCopyBackupsTask();
    task.setMetadata(new ObjectMetaBuilder().withName("copy").withNamespace("ns")
        .withUid("uid-1").withGeneration(1L).build());
    EtcdCopyBackupsTaskSpec spec = new EtcdCopyBackupsTaskSpec();
    spec.setSourceStore(source);
    spec.setTargetStore(target);
    task.setSpec(spec);
    return task;
  }

  static StoreSpec store(StorageProvider provider, String container, String prefix,
      String endpoint, String secret) {
    StoreSpec store = new StoreSpec();
    store.setProvider(provider);
    store.setContainer(container);
    store.setPrefix(prefix);
    store.setEndpointOverride(endpoint);
    if (secret != null) {
      store.setSecretRef(new SecretReference(secret, null));
    }
    return store;
  }
}
