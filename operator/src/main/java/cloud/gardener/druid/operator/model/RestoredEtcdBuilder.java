package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.Annotations;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Etcd a point-in-time restore creates (addition): the source's spec with its own store
 * prefix (whose first full snapshot the restore Job wrote) and its own member names; the
 * source's labels, and {@link Annotations#RESTORED_FROM} naming the source and the revision.
 * Not owned by the source: it outlives it.
 */
public final class RestoredEtcdBuilder {

  private RestoredEtcdBuilder() {
  }

  public static Etcd build(Etcd source, String name, String storePrefix, long revision) {
    EtcdSpec spec = Serialization.clone(source.getSpec());
    spec.setMemberNamePrefix(null);
    spec.getBackup().getStore().setPrefix(storePrefix);
    if (Optional.ofNullable(spec.getReplicas()).orElse(1) == 0) {
      spec.setReplicas(1); // restored from a hibernated Etcd: at least one member to read it
    }
    Map<String, String> annotations = new HashMap<>();
    annotations.put(Annotations.RESTORED_FROM, source.getMetadata().getNamespace() + "/"
        + source.getMetadata().getName() + "@" + revision);
    Etcd etcd = new Etcd();
    etcd.setMetadata(new ObjectMetaBuilder().withName(name)
        .withNamespace(source.getMetadata().getNamespace())
        .withLabels(source.getMetadata().getLabels()).withAnnotations(annotations).build());
    etcd.setSpec(spec);
    return etcd;
  }
}
