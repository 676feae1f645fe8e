package cloud.gardener.druid.operator.model;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

/**
 * The security settings of every pod the operator creates (members and copy Jobs): what Pod
 * Security {@code restricted} asks for. The process runs as the image's user (65532), its
 * volumes writable through {@code fsGroup}, the root filesystem read-only with a writable
 * {@code /tmp} volume (the JVM's temporary files).
 *
 * <p>{@code spec.runAsRoot: true} of an Etcd does what upstream does: user, group and
 * {@code fsGroup} 0, {@code runAsNonRoot: false}. Its container keeps the default
 * capabilities then, since a root process without {@code DAC_OVERRIDE} could not write files
 * another user owns (the reason to run as root at all); such pods pass Pod Security
 * {@code baseline}, not {@code restricted}.
 */
public final class PodSecurity {

  /** The image's user and group ({@code USER 65532:65532}). */
  public static final long NON_ROOT = 65532L;
  static final String TMP_VOLUME = "tmp";
  static final String TMP_DIR = "/tmp";

  private PodSecurity() {
  }

  public static PodSecurityContext pod(boolean root) {
    long id = root ? 0L : NON_ROOT;
    return new PodSecurityContextBuilder()
        .withRunAsNonRoot(!root)
        .withRunAsUser(id)
        .withRunAsGroup(id)
        .withFsGroup(id)
        .withFsGroupChangePolicy("OnRootMismatch")
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .build();
  }

  public static SecurityContext container(boolean root) {
    SecurityContextBuilder context = new SecurityContextBuilder()
        .withAllowPrivilegeEscalation(false)
        .withReadOnlyRootFilesystem(true)
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile();
    if (!root) {
      context.withNewCapabilities().withDrop("ALL").endCapabilities();
    }
    return context.build();
  }

  /** The writable {@code /tmp} of a read-only root filesystem. */
  static Volume tmpVolume() {
    return new VolumeBuilder().withName(TMP_VOLUME).withNewEmptyDir().endEmptyDir().build();
  }

  static VolumeMount tmpMount() {
    return new VolumeMountBuilder().withName(TMP_VOLUME).withMountPath(TMP_DIR).build();
  }
}
