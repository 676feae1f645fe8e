package cloud.gardener.druid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdMemberStatus;
import cloud.gardener.druid.api.v1alpha1.EtcdSpec;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class EtcdStatusReportTest {

  @Test
  void showsMembersConditionsAndHowToConfirmAPendingVolumeChange() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns").withGeneration(4L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(3);
    EtcdStatus s = new EtcdStatus();
    s.setObservedGeneration(4L);
    EtcdMemberStatus m = new EtcdMemberStatus();
    m.setName("main-0");
    m.setRole("Leader");
    m.setStatus("Ready");
    m.setMemberRevision("abc");
    m.setUpdated(true);
    s.setMembers(List.of(m));
    Condition c = new Condition();
    c.setType("VolumesUpToDate");
    c.setStatus("False");
    c.setReason("AwaitingConfirmation");
    c.setMessage("storage class standard -> encrypted");
    s.setConditions(List.of(c));
    etcd.setStatus(s);

    String text = EtcdStatusReport.render(etcd);

    assertThat(text).contains("Etcd ns/main", "Rollout: in progress", "AllMembersUpdated is absent")
        .containsPattern("main-0\\s+-\\s+Leader\\s+Ready\\s+abc")
        .contains("kubectl -n ns annotate etcd main druid.gardener.cloud/confirm-volume-replacement=4");
  }

  @Test
  void showsTheVolumeOperationInProgress() {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName("main").withNamespace("ns").withGeneration(5L).build());
    etcd.setSpec(new EtcdSpec());
    etcd.getSpec().setReplicas(3);
    EtcdStatus s = new EtcdStatus();
    cloud.gardener.druid.api.v1alpha1.VolumeOperation op =
        new cloud.gardener.druid.api.v1alpha1.VolumeOperation();
    op.setType("Replace");
    op.setPhase("Replacing");
    op.setCurrentMember("main-0");
    op.setCompletedMembers(List.of("main-2"));
    op.setSnapshotRevision(42L);
    s.setVolumeOperation(op);
    etcd.setStatus(s);

    assertThat(EtcdStatusReport.render(etcd)).contains("Volume operation in progress: Replace,"
        + " phase Replacing, member main-0, done: main-2, full snapshot at revision 42");
  }
}
