package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.List;

/**
 * The Secret of {@code spec.etcd.authSecretRef}: the etcd user the member's agent authenticates
 * as. Upstream defines no keys for it; these follow etcd-backup-restore's option names
 * ({@code --etcd-username}, {@code --etcd-password}).
 */
public final class EtcdAuthSecret {

  public static final String USERNAME = "username";
  public static final String PASSWORD = "password";
  static final String VOLUME = "etcd-auth";

  private EtcdAuthSecret() {
  }

  /**
   * For a Job that starts an etcd from the Etcd's backups (drill, compaction, time travel):
   * the restored database keeps etcd's authentication on, so the Job's agent gets the same
   * read-only files as the members' and {@code --etcd-auth-dir}; nothing without the field.
   */
  static void addTo(Etcd etcd, List<String> args, List<Volume> volumes,
      List<VolumeMount> mounts) {
    SecretReference ref = EtcdDefaults.etcd(etcd).getAuthSecretRef();
    if (ref == null) {
      return;
    }
    args.add("--etcd-auth-dir=" + MemberLayout.ETCD_AUTH_DIR);
    volumes.add(volume(ref.getName()));
    mounts.add(mount());
  }

  /** Only the two keys the agent reads. */
  static Volume volume(String secret) {
    return new VolumeBuilder().withName(VOLUME).withNewSecret().withSecretName(secret)
        .addNewItem().withKey(USERNAME).withPath(USERNAME).endItem()
        .addNewItem().withKey(PASSWORD).withPath(PASSWORD).endItem()
        .endSecret().build();
  }

  static VolumeMount mount() {
    return new VolumeMountBuilder().withName(VOLUME).withMountPath(MemberLayout.ETCD_AUTH_DIR)
        .withReadOnly(true).build();
  }
}
