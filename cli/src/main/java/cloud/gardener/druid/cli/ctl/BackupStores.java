package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.agent.store.LocalSnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStore;
import cloud.gardener.druid.agent.store.SnapshotStores;
import cloud.gardener.druid.agent.store.StoreConfig;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StorageProvider;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import cloud.gardener.druid.cli.shared.ExitCodes;
import cloud.gardener.druid.cli.shared.UserError;
import cloud.gardener.druid.operator.model.LocalStore;
import cloud.gardener.druid.operator.model.LocalStoreLayout;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Opens the backup store of an Etcd from this machine, with the agent's store classes: a
 * {@code Local} store in the directory the operator mounts ({@link LocalStore#hostPath}, below
 * the operator's store root, a directory of this machine as with {@code druid local up}), an
 * {@code S3} store with the keys of the Etcd's store secret, which are written to an
 * owner-only temporary directory for the store to read and deleted on close.
 */
final class BackupStores {

  private BackupStores() {
  }

  /** An open store and what to delete after it. */
  record Opened(SnapshotStore store, Optional<Path> secretDir) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      store.close();
      if (secretDir.isPresent()) {
        try (var files = Files.list(secretDir.get())) {
          for (Path f : files.toList()) {
            Files.delete(f);
          }
        }
        Files.delete(secretDir.get());
      }
    }
  }

  static Opened open(KubernetesClient client, Etcd etcd, Path localStoreRoot,
      LocalStoreLayout localStoreLayout) throws IOException {
    StoreSpec store = etcd.getSpec().getBackup() == null ? null
        : etcd.getSpec().getBackup().getStore();
    if (store == null) {
      throw new UserError("etcd " + EtcdPlans.describe(etcd) + " has no backup store"
          + " (spec.backup.store)", ExitCodes.NOT_FOUND);
    }
    StorageProvider provider = store.getProvider() == null ? StorageProvider.LOCAL
        : store.getProvider().canonical();
    return switch (provider) {
      case LOCAL -> new Opened(new LocalSnapshotStore(Path.of(LocalStore.hostPath(
          localStoreRoot.toString(), localStoreLayout, etcd.getMetadata().getNamespace(), store)),
          store.getPrefix()), Optional.empty());
      case S3 -> openS3(client, etcd, store, store.getContainer() == null
          || store.getContainer().isEmpty() ? "default" : store.getContainer());
      default -> throw new UserError("listing backups of provider " + store.getProvider()
          + " is not supported yet (Local and S3 are)", ExitCodes.REFUSED);
    };
  }

  private static Opened openS3(KubernetesClient client, Etcd etcd, StoreSpec store,
      String container) throws IOException {
    Optional<Path> secretDir = Optional.empty();
    if (store.getSecretRef() != null) {
      String ns = store.getSecretRef().getNamespace() == null
          ? etcd.getMetadata().getNamespace() : store.getSecretRef().getNamespace();
      Secret secret = client.secrets().inNamespace(ns).withName(store.getSecretRef().getName())
          .get();
      if (secret == null) {
        throw new UserError("store secret " + ns + "/" + store.getSecretRef().getName()
            + " not found", ExitCodes.NOT_FOUND);
      }
      secretDir = Optional.of(writeKeys(secret));
    }
    StoreConfig config = new StoreConfig(StoreConfig.Provider.S3, container, store.getPrefix(),
        Optional.ofNullable(store.getEndpointOverride()).map(URI::create), secretDir);
    return new Opened(SnapshotStores.open(config), secretDir);
  }

  private static Path writeKeys(Secret secret) throws IOException {
    Path dir = Files.createTempDirectory("druid-store-",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
    for (Map.Entry<String, String> e : data.entrySet()) {
      Files.write(dir.resolve(e.getKey()), Base64.getDecoder().decode(e.getValue()));
    }
    Map<String, String> plain = secret.getStringData() == null ? Map.of() : secret.getStringData();
    for (Map.Entry<String, String> e : plain.entrySet()) {
      Files.writeString(dir.resolve(e.getKey()), e.getValue());
    }
    return dir;
  }
}
