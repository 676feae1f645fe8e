package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.v1alpha1.BackupVerificationSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackupDrillJobBuilderTest {

  final OperatorSettings settings = new OperatorSettings("example.org/druid:1", "/stores",
      CompactionSettings.DISABLED);

  @Test
  void theDrillReadsTheStoreOnlyWithinBoundedResourcesAndWritesItsReportIntoItsLease() {
    Etcd etcd = Etcds.etcd("main", 3);
    etcd.getSpec().getBackup().getStore().setProvider(StorageProvider.AWS);
    etcd.getSpec().getBackup().getStore().setSecretRef(new SecretReference("s3-creds", null));

    Job job = BackupDrillJobBuilder.build(etcd, settings, Duration.ofMinutes(30));

    assertThat(job.getMetadata().getName()).isEqualTo("main-backup-drill");
    assertThat(job.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("Etcd"));
    assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(1800L);
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    var pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getServiceAccountName()).isEqualTo("main");
    var container = pod.getContainers().get(0);
    assertThat(container.getArgs()).containsExactly("agent", "verify-backups",
        "--etcd-name=main", "--data-dir=/var/etcd/data/drill", "--etcd-version=3.6.16",
        "--report-lease=main-backup-verification", "--store-provider=S3",
        "--store-container=backups", "--store-prefix=ns/main",
        "--store-secret-dir=/var/etcd-backup/secret");
    assertThat(container.getResources().getLimits()).containsEntry("memory",
        new Quantity("3Gi"));
    assertThat(pod.getVolumes()).extracting(v -> v.getName())
        .as("no member volume").containsExactly("tmp", "drill-workspace", "store-secret");
    assertThat(container.getVolumeMounts()).filteredOn(m -> m.getName().equals("store-secret"))
        .extracting(VolumeMount::getReadOnly).containsExactly(true);
  }

  @Test
  void drillsAreScheduledDailyForEtcdsWithAStoreUnlessSwitchedOff() {
    Etcd etcd = Etcds.etcd("main", 3);
    assertThat(BackupDrillJobBuilder.scheduled(etcd)).isTrue();
    assertThat(BackupDrillJobBuilder.schedule(etcd)).isEqualTo("@daily");

    BackupVerificationSpec v = new BackupVerificationSpec();
    v.setSchedule(CronSchedule.parse("0 3 * * 0"));
    ResourceRequirements resources = new ResourceRequirements();
    resources.setLimits(Map.of("memory", new Quantity("8Gi")));
    v.setResources(resources);
    etcd.getSpec().getBackup().setVerification(v);
    assertThat(BackupDrillJobBuilder.schedule(etcd)).isEqualTo("0 3 * * 0");
    assertThat(BackupDrillJobBuilder.resources(etcd).getLimits())
        .containsEntry("memory", new Quantity("8Gi"));

    v.setEnabled(false);
    assertThat(BackupDrillJobBuilder.scheduled(etcd)).isFalse();
    etcd.getSpec().getBackup().setVerification(null);
    etcd.getSpec().getBackup().setStore(null);
    assertThat(BackupDrillJobBuilder.scheduled(etcd)).isFalse();
  }
}
