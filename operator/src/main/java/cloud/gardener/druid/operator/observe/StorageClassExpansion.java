package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.operator.cache.OwnedCaches;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/** Reads whether a StorageClass (or the cluster's default class) allows volume expansion. */
public final class StorageClassExpansion {

  static final String DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

  private StorageClassExpansion() {
  }

  /** The same answer from the operator's StorageClass cache. */
  public static boolean allowsExpansion(OwnedCaches caches, String className) {
    Optional<StorageClass> sc = className == null
        ? caches.all(StorageClass.class, null).stream().filter(StorageClassExpansion::isDefault).findFirst()
        : caches.get(StorageClass.class, null, className);
    return sc.map(c -> Boolean.TRUE.equals(c.getAllowVolumeExpansion())).orElse(false);
  }

  private static boolean isDefault(StorageClass c) {
    return c.getMetadata().getAnnotations() != null
        && "true".equals(c.getMetadata().getAnnotations().get(DEFAULT_CLASS));
  }

  /** False when the class cannot be read: growing then becomes a replacement, never a guess. */
  public static boolean allowsExpansion(KubernetesClient client, String className) {
    try {
      Optional<StorageClass> sc = className == null
          ? client.storage().v1().storageClasses().list().getItems().stream()
              .filter(StorageClassExpansion::isDefault).findFirst()
          : Optional.ofNullable(client.storage().v1().storageClasses().withName(className).get());
      return sc.map(c -> Boolean.TRUE.equals(c.getAllowVolumeExpansion())).orElse(false);
    } catch (KubernetesClientException e) {
      return false;
    }
  }
}
