package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

/** Owner references from managed objects to their Etcd. */
public final class Owners {

  private Owners() {
  }

  /** The controller reference: garbage collection removes the object with its Etcd. */
  public static OwnerReference controller(Etcd etcd) {
    return new OwnerReferenceBuilder()
        .withApiVersion(Etcd.GROUP + "/" + Etcd.VERSION)
        .withKind("Etcd")
        .withName(etcd.getMetadata().getName())
        .withUid(etcd.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }
}
