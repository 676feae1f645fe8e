package cloud.gardener.druid.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.RestoreIntoConfig;
import cloud.gardener.druid.api.v1alpha1.UndeleteConfig;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeTravelJobBuilderTest {

  final OperatorSettings settings = new OperatorSettings("example.org/druid:1", "/stores",
      CompactionSettings.DISABLED);

  @Test
  void theRestoreJobWritesTheNewEtcdsPrefixNextToTheSourcesAndReadsTheSourcesStore() {
    Etcd etcd = Etcds.etcd("main", 3);
    RestoreIntoConfig c = new RestoreIntoConfig();
    c.setEtcdName("main-before");
    c.setRevision(4711L);

    Job job = TimeTravelJobBuilder.restoreInto(etcd, c, settings, Duration.ofMinutes(60));

    assertThat(job.getMetadata().getName()).isEqualTo("main-restore-into");
    assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(3600L);
    var container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getArgs()).containsSequence("agent", "restore-to",
        "--target-store-prefix=ns/main-before", "--target-etcd-name=main-before")
        .contains("--to-revision=4711", "--etcd-name=main", "--store-prefix=ns/main");
    assertThat(container.getVolumeMounts()).filteredOn(m -> m.getName().equals("local-store"))
        .extracting(VolumeMount::getReadOnly).containsExactly(false);
    assertThat(job.getSpec().getTemplate().getSpec().getVolumes()).extracting(v -> v.getName())
        .as("no member volume").doesNotContain("data");
  }

  @Test
  void theUndeleteJobReadsTheStoreAndWritesThroughEveryMembersClientUrl() {
    Etcd etcd = Etcds.etcd("main", 3);
    UndeleteConfig c = new UndeleteConfig();
    c.setPrefix("/registry/configmaps/a/");
    c.setTime("2026-12-04T23:15:00Z");
    c.setDryRun(true);

    Job job = TimeTravelJobBuilder.undelete(etcd, c, settings, Duration.ofMinutes(30));

    var container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(job.getMetadata().getName()).isEqualTo("main-undelete");
    assertThat(container.getArgs()).contains("--prefix=/registry/configmaps/a/",
        "--at-time=2026-12-04T23:15:00Z", "--dry-run", "--endpoints="
            + "http://main-0.main-peer.ns.svc:2379,http://main-1.main-peer.ns.svc:2379,"
            + "http://main-2.main-peer.ns.svc:2379")
        .doesNotContain("--remove-created-after");
    assertThat(container.getVolumeMounts()).filteredOn(m -> m.getName().equals("local-store"))
        .extracting(VolumeMount::getReadOnly).containsExactly(true);
  }

  @Test
  void theNewStorePrefixDefaultsToTheSourcesWithTheNewName() {
    Etcd etcd = Etcds.etcd("main", 3);
    RestoreIntoConfig c = new RestoreIntoConfig();
    c.setEtcdName("copy");
    assertThat(TimeTravelJobBuilder.targetPrefix(etcd, c)).isEqualTo("ns/copy");
    etcd.getSpec().getBackup().getStore().setPrefix("flat");
    assertThat(TimeTravelJobBuilder.targetPrefix(etcd, c)).isEqualTo("copy");
    c.setStorePrefix("elsewhere/copy");
    assertThat(TimeTravelJobBuilder.targetPrefix(etcd, c)).isEqualTo("elsewhere/copy");
  }

  @Test
  void theRestoredEtcdIsTheSourcesSpecWithItsOwnPrefixAndMemberNames() {
    Etcd source = Etcds.etcd("main", 0);
    source.getSpec().setMemberNamePrefix("shared");

    Etcd restored = RestoredEtcdBuilder.build(source, "main-before", "ns/main-before", 4711);

    assertThat(restored.getMetadata().getName()).isEqualTo("main-before");
    assertThat(restored.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(restored.getMetadata().getAnnotations())
        .containsEntry(Annotations.RESTORED_FROM, "ns/main@4711");
    assertThat(restored.getMetadata().getOwnerReferences()).isNullOrEmpty();
    assertThat(restored.getSpec().getBackup().getStore().getPrefix()).isEqualTo("ns/main-before");
    assertThat(restored.getSpec().getMemberNamePrefix()).isNull();
    assertThat(restored.getSpec().getReplicas()).isEqualTo(1);
    assertThat(source.getSpec().getBackup().getStore().getPrefix()).isEqualTo("ns/main");
  }
}
