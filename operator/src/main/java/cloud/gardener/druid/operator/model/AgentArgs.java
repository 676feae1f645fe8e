package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@code druid agent} in a member container. The agent learns its own pod
 * from the downward API (POD_NAME, POD_NAMESPACE, POD_IP) and everything cluster-wide from
 * these arguments and the mounted etcd config.
 */
public final class AgentArgs {

  private AgentArgs() {
  }

  public static List<String> build(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    BackupSpec backup = EtcdDefaults.backup(etcd);
    List<String> args = new ArrayList<>();
    args.add("agent");
    add(args, "etcd-name", names.etcd());
    add(args, "peer-service", names.peerService());
    add(args, "config-file", MemberLayout.CONFIG_FILE);
    add(args, "data-dir", MemberLayout.DATA_DIR);
    add(args, "port", EtcdDefaults.agentPort(etcd));
    if (EtcdDefaults.agentTls(etcd)) {
      add(args, "tls-cert-file", MemberLayout.AGENT_TLS_SERVER + "/tls.crt");
      add(args, "tls-key-file", MemberLayout.AGENT_TLS_SERVER + "/tls.key");
    }
    if (EtcdDefaults.clientTls(etcd) && etcd.getSpec().getEtcd().getClientUrlTls().getClientTLSSecretRef() != null) {
      add(args, "etcd-client-cert-dir", MemberLayout.CLIENT_TLS_CLIENT);
      add(args, "etcd-ca-file", MemberLayout.CLIENT_TLS_CA + "/"
          + EtcdConfigMapBuilder.caKey(etcd.getSpec().getEtcd().getClientUrlTls().getTlsCASecretRef()));
    }
    StoreSpec store = backup.getStore();
    if (store != null) {
      addStore(args, store);
      add(args, "full-snapshot-schedule", text(backup.getFullSnapshotSchedule(),
          EtcdDefaults.FULL_SNAPSHOT_SCHEDULE));
      add(args, "delta-snapshot-period", text(backup.getDeltaSnapshotPeriod(),
          EtcdDefaults.DELTA_SNAPSHOT_PERIOD));
      add(args, "delta-snapshot-memory-limit", backup.getDeltaSnapshotMemoryLimit() == null
          ? EtcdDefaults.DELTA_SNAPSHOT_MEMORY_LIMIT : backup.getDeltaSnapshotMemoryLimit().toString());
      add(args, "garbage-collection-policy", backup.getGarbageCollectionPolicy() == null
          ? "Exponential" : backup.getGarbageCollectionPolicy().name());
      add(args, "garbage-collection-period", text(backup.getGarbageCollectionPeriod(),
          EtcdDefaults.GARBAGE_COLLECTION_PERIOD));
      add(args, "max-backups", backup.getMaxBackupsLimitBasedGC() == null
          ? EtcdDefaults.MAX_BACKUPS : backup.getMaxBackupsLimitBasedGC());
      boolean compress = backup.getCompression() == null
          || !Boolean.FALSE.equals(backup.getCompression().getEnabled());
      add(args, "compress", compress);
    }
    add(args, "defragmentation-schedule", text(EtcdDefaults.etcd(etcd).getDefragmentationSchedule(),
        EtcdDefaults.DEFRAGMENTATION_SCHEDULE));
    return List.copyOf(args);
  }

  private static void addStore(List<String> args, StoreSpec store) {
    var provider = store.getProvider() == null ? null : store.getProvider().canonical();
    add(args, "store-provider", provider == null ? "Local" : providerName(provider));
    if (store.getContainer() != null) {
      add(args, "store-container", store.getContainer());
    }
    add(args, "store-prefix", store.getPrefix());
    if (store.getEndpointOverride() != null) {
      add(args, "store-endpoint", store.getEndpointOverride());
    }
    if (store.getSecretRef() != null) {
      add(args, "store-secret-dir", MemberLayout.STORE_SECRET_DIR);
    }
    if (provider == null || provider == cloud.gardener.druid.api.v1alpha1.StorageProvider.LOCAL) {
      add(args, "local-store-dir", MemberLayout.LOCAL_STORE_DIR);
    }
  }

  private static String providerName(cloud.gardener.druid.api.v1alpha1.StorageProvider p) {
    return switch (p) {
      case LOCAL -> "Local";
      case SWIFT -> "Swift";
      default -> p.name();
    };
  }

  private static String text(Object value, String fallback) {
    return value == null ? fallback : value.toString();
  }

  private static void add(List<String> args, String name, Object value) {
    args.add("--" + name + "=" + value);
  }
}
