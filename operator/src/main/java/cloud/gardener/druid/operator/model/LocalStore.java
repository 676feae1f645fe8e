package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

/** A {@code Local} backup store: a host directory mounted into every member. */
final class LocalStore {

  private LocalStore() {
  }

  static boolean isLocal(StoreSpec store) {
    return store != null
        && (store.getProvider() == null || store.getProvider().canonical() == StorageProvider.LOCAL);
  }

  /** The store's host directory as a volume named {@code name}, created when missing. */
  static Volume volume(String name, OperatorSettings settings, StoreSpec store) {
    return new VolumeBuilder().withName(name)
        .withNewHostPath().withPath(hostPath(settings, store))
        .withType("DirectoryOrCreate").endHostPath().build();
  }

  /** Host directory of the store: the container (bucket) below the operator's store root. */
  static String hostPath(OperatorSettings settings, StoreSpec store) {
    String container = store.getContainer() == null || store.getContainer().isEmpty()
        ? "default" : store.getContainer();
    return settings.localStoreRoot() + "/" + container;
  }
}
