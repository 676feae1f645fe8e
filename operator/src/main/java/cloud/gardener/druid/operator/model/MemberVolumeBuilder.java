package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds member PVCs and the volume-revision that says whether an existing PVC matches. */
public final class MemberVolumeBuilder {

  private MemberVolumeBuilder() {
  }

  /** The parts of a volume that a revision covers: class, size and template name. */
  public record VolumeSpec(String storageClass, Quantity capacity, String template) {
  }

  public static VolumeSpec desired(Etcd etcd) {
    return new VolumeSpec(etcd.getSpec().getStorageClass(), EtcdDefaults.storageCapacity(etcd),
        EtcdNames.of(etcd).volumeTemplate());
  }

  public static String revision(Etcd etcd) {
    VolumeSpec v = desired(etcd);
    return Revisions.of(Map.of(
        "storageClass", v.storageClass() == null ? "" : v.storageClass(),
        "capacity", v.capacity().getNumericalAmount().toPlainString(),
        "template", v.template()));
  }

  public static PersistentVolumeClaim build(Etcd etcd, int ordinal) {
    EtcdNames names = EtcdNames.of(etcd);
    VolumeSpec v = desired(etcd);
    Map<String, String> labels = new LinkedHashMap<>(EtcdLabels.volumeSelector(etcd));
    labels.put(Labels.MEMBER_ORDINAL, Integer.toString(ordinal));
    labels.put(Labels.VOLUME_REVISION, revision(etcd));
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
          .withName(names.pvc(ordinal))
          .withNamespace(names.namespace())
          .withLabels(labels)
          .withOwnerReferences(Owners.controller(etcd))
        .endMetadata()
        .withNewSpec()
          .withAccessModes("ReadWriteOnce")
          .withStorageClassName(v.storageClass())
          .withNewResources().addToRequests("storage", v.capacity()).endResources()
        .endSpec()
        .build();
  }
}
