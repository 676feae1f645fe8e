package cloud.gardener.druid.operator.volume;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.MemberVolumeBuilder;
import cloud.gardener.druid.operator.testing.Etcds;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

class VolumeDiffTest {

  final Etcd etcd = Etcds.etcd("e", 3);
  final PersistentVolumeClaim existing = MemberVolumeBuilder.build(etcd, 0);

  @Test
  void unchangedSpecNeedsNothing() {
    assertThat(diff(true).change()).isEqualTo(VolumeChange.NONE);
  }

  @Test
  void growthOnAnExpandableClassIsDoneInPlace() {
    etcd.getSpec().setStorageCapacity(new Quantity("32Gi"));
    assertThat(diff(true).change()).isEqualTo(VolumeChange.GROW);
    assertThat(diff(true).differences()).containsExactly("size 16Gi -> 32Gi");
  }

  @Test
  void growthOnAClassWithoutExpansionNeedsAReplacement() {
    etcd.getSpec().setStorageCapacity(new Quantity("32Gi"));
    assertThat(diff(false).change()).isEqualTo(VolumeChange.REPLACE);
  }

  @Test
  void shrinkIsAReplacement() {
    etcd.getSpec().setStorageCapacity(new Quantity("8Gi"));
    VolumeDiff.Result r = diff(true);
    assertThat(r.change()).isEqualTo(VolumeChange.REPLACE);
    assertThat(r.differences()).containsExactly("size 16Gi -> 8Gi (shrink)");
  }

  @Test
  void classChangeIsAReplacementThatSaysWhatChanges() {
    etcd.getSpec().setStorageClass("encrypted");
    VolumeDiff.Result r = diff(true);
    assertThat(r.change()).isEqualTo(VolumeChange.REPLACE);
    assertThat(r.differences()).containsExactly("storage class standard -> encrypted");
  }

  @Test
  void onlyTheCurrentGenerationConfirms() {
    etcd.getMetadata().setGeneration(5L);
    etcd.getMetadata().setAnnotations(new HashMap<>());
    etcd.getMetadata().getAnnotations().put(Annotations.CONFIRM_VOLUME_REPLACEMENT, "4");
    assertThat(ReplacementConfirmation.isConfirmed(etcd)).isFalse();
    etcd.getMetadata().getAnnotations().put(Annotations.CONFIRM_VOLUME_REPLACEMENT, "5");
    assertThat(ReplacementConfirmation.isConfirmed(etcd)).isTrue();
    etcd.getMetadata().setGeneration(6L);
    assertThat(ReplacementConfirmation.isConfirmed(etcd)).isFalse();
  }

  private VolumeDiff.Result diff(boolean expandable) {
    return VolumeDiff.of(existing, MemberVolumeBuilder.desired(etcd),
        cloud.gardener.druid.operator.model.EtcdNames.of(etcd).pvc(0),
        MemberVolumeBuilder.revision(etcd), expandable);
  }
}
