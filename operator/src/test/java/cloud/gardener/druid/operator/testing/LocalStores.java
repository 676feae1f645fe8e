package cloud.gardener.druid.operator.testing;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.operator.model.LocalStore;
import cloud.gardener.druid.operator.model.OperatorSettings;
import java.nio.file.Path;

/**
 * Where tests find a {@code Local} store on the host: always by the operator's own rule
 * ({@link LocalStore#hostPath}), never by a path a test builds itself.
 */
public final class LocalStores {

  private LocalStores() {
  }

  /** The host directory the operator mounts for {@code container} in {@code namespace}. */
  public static Path dir(OperatorSettings settings, String namespace, String container) {
    return Path.of(LocalStore.hostPath(settings.localStoreRoot(), settings.localStoreLayout(),
        namespace, container));
  }

  /** The host directory of the Etcd's {@code Local} store (its container, not its prefix). */
  public static Path dir(OperatorSettings settings, Etcd etcd) {
    return dir(settings, etcd.getMetadata().getNamespace(), store(etcd).getContainer());
  }

  /** The directory the agent writes the Etcd's snapshots to: {@code <store>/<prefix>/v2}. */
  public static Path snapshots(OperatorSettings settings, Etcd etcd) {
    return dir(settings, etcd).resolve(store(etcd).getPrefix()).resolve("v2");
  }

  private static StoreSpec store(Etcd etcd) {
    return etcd.getSpec().getBackup().getStore();
  }
}
