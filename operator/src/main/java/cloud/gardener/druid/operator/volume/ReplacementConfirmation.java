package cloud.gardener.druid.operator.volume;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;

/**
 * A volume replacement is authorised only by the annotation
 * {@code druid.gardener.cloud/confirm-volume-replacement} equal to the Etcd's current
 * {@code metadata.generation}: a confirmation given for an older spec never authorises a
 * later change.
 */
public final class ReplacementConfirmation {

  private ReplacementConfirmation() {
  }

  public static boolean isConfirmed(Etcd etcd) {
    var annotations = etcd.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(Annotations.CONFIRM_VOLUME_REPLACEMENT);
    return value != null && value.trim().equals(String.valueOf(etcd.getMetadata().getGeneration()));
  }

  /** The kubectl command that confirms the current generation. */
  public static String howToConfirm(Etcd etcd) {
    return "kubectl -n " + etcd.getMetadata().getNamespace() + " annotate etcd "
        + etcd.getMetadata().getName() + " " + Annotations.CONFIRM_VOLUME_REPLACEMENT + "="
        + etcd.getMetadata().getGeneration() + " --overwrite";
  }
}
