package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;

/** A {@code Local} backup store: a host directory mounted into every member. */
final class LocalStore {

  private LocalStore() {
  }

  static boolean isLocal(StoreSpec store) {
    return store != null
        && (store.getProvider() == null || store.getProvider().canonical() == StorageProvider.LOCAL);
  }

  /** Host directory of the store: the container (bucket) below the operator's store root. */
  static String hostPath(OperatorSettings settings, StoreSpec store) {
    String container = store.getContainer() == null || store.getContainer().isEmpty()
        ? "default" : store.getContainer();
    return settings.localStoreRoot() + "/" + container;
  }
}
