package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

/**
 * A {@code Local} backup store: a host directory mounted into every member, copy Job and
 * compaction Job that uses it, and read by {@code druid ctl backups}. The one home of the rule
 * that names that directory.
 */
public final class LocalStore {

  /** The directory of a store that names no container. */
  public static final String DEFAULT_CONTAINER = "default";

  private LocalStore() {
  }

  public static boolean isLocal(StoreSpec store) {
    return store != null
        && (store.getProvider() == null || store.getProvider().canonical() == StorageProvider.LOCAL);
  }

  /**
   * The store's host directory as a volume named {@code name}, created when missing.
   *
   * @param namespace the namespace of the Etcd or task whose pod mounts the store
   */
  static Volume volume(String name, OperatorSettings settings, String namespace,
      StoreSpec store) {
    return new VolumeBuilder().withName(name)
        .withNewHostPath().withPath(hostPath(settings, namespace, store))
        .withType("DirectoryOrCreate").endHostPath().build();
  }

  static String hostPath(OperatorSettings settings, String namespace, StoreSpec store) {
    return hostPath(settings.localStoreRoot(), settings.localStoreLayout(), namespace, store);
  }

  /**
   * Host directory of the store: the container (bucket; {@value #DEFAULT_CONTAINER} when
   * empty) below the operator's store root, below a directory of the namespace unless the
   * layout is {@link LocalStoreLayout#SHARED}. The namespace is a DNS label, so it cannot
   * leave the root.
   */
  public static String hostPath(String root, LocalStoreLayout layout, String namespace,
      StoreSpec store) {
    return hostPath(root, layout, namespace, store.getContainer());
  }

  /** As {@link #hostPath(String, LocalStoreLayout, String, StoreSpec)}, by container. */
  public static String hostPath(String root, LocalStoreLayout layout, String namespace,
      String container) {
    String dir = container == null || container.isEmpty() ? DEFAULT_CONTAINER : container;
    return switch (layout) {
      case SHARED -> root + "/" + dir;
      case PER_NAMESPACE -> {
        if (namespace == null || namespace.isEmpty()) {
          throw new IllegalArgumentException("metadata.namespace: required for a Local store"
              + " in the " + layout + " layout");
        }
        yield root + "/" + namespace + "/" + dir;
      }
    };
  }
}
