package cloud.gardener.druid.operator.testing;

import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import cloud.gardener.druid.api.v1alpha1.EtcdSpec;
import cloud.gardener.druid.api.v1alpha1.StoreSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Map;

/** Etcd objects for unit tests. */
public final class Etcds {

  private Etcds() {
  }

  public static Etcd etcd(String name, int replicas) {
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns")
        .withUid("uid-" + name).withGeneration(1L).build());
    EtcdSpec spec = new EtcdSpec();
    spec.setReplicas(replicas);
    spec.setLabels(Map.of("app", name));
    spec.setEtcd(new EtcdConfig());
    BackupSpec backup = new BackupSpec();
    StoreSpec store = new StoreSpec();
    store.setPrefix("ns/" + name);
    store.setContainer("backups");
    backup.setStore(store);
    spec.setBackup(backup);
    spec.setStorageClass("standard");
    etcd.setSpec(spec);
    return etcd;
  }
}
