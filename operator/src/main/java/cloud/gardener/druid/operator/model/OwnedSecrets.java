package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.Map;

/** The Secrets the operator writes for an Etcd: its labels, its controller reference. */
public final class OwnedSecrets {

  private OwnedSecrets() {
  }

  /**
   * The Secret {@code name} with {@code data} (base64 values) to write over {@code existing}
   * (null: to create): it carries existing's resource version, so that a concurrent writer
   * makes the update fail and retry rather than be overwritten.
   */
  public static Secret desired(Etcd etcd, String name, Secret existing,
      Map<String, String> data) {
    return new SecretBuilder()
        .withNewMetadata()
          .withName(name)
          .withNamespace(etcd.getMetadata().getNamespace())
          .withLabels(EtcdLabels.managed(etcd))
          .withOwnerReferences(Owners.controller(etcd))
          .withResourceVersion(existing == null ? null
              : existing.getMetadata().getResourceVersion())
        .endMetadata()
        .withType("Opaque")
        .withData(data)
        .build();
  }
}
