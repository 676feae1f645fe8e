package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.MemberVolumeBuilder.VolumeSpec;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * What an Etcd's spec asks its members to be (pure, from the spec and the operator's
 * settings): the planners and the status compare the observed members with it.
 *
 * @param podRevision the member-revision label a pod built from the spec carries
 * @param volumeRevision the volume-revision label a PVC built from the spec carries
 * @param volume the volume's class, size and template
 * @param metadataRevision the metadata-revision annotation of a pod with the spec's labels and
 *     annotations
 */
public record DesiredMembers(String podRevision, String volumeRevision, VolumeSpec volume,
    String metadataRevision) {

  /** Members whose labels and annotations are not compared (no metadata revision). */
  public DesiredMembers(String podRevision, String volumeRevision, VolumeSpec volume) {
    this(podRevision, volumeRevision, volume, null);
  }

  public static DesiredMembers of(Etcd etcd, OperatorSettings settings) {
    return new DesiredMembers(MemberPodBuilder.revision(etcd, settings),
        MemberVolumeBuilder.revision(etcd), MemberVolumeBuilder.desired(etcd),
        MemberPodBuilder.metadataRevision(etcd));
  }

  public Quantity capacity() {
    return volume.capacity();
  }
}
