package cloud.gardener.druid.operator.model;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdCopyBackupsTask;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

/** Owner references from managed objects to the resource they belong to. */
public final class Owners {

  private Owners() {
  }

  /** The controller reference: garbage collection removes the object with its Etcd. */
  public static OwnerReference controller(Etcd etcd) {
    return controller("Etcd", etcd.getMetadata());
  }

  /** The controller reference of a copy Job: it goes with its task. */
  public static OwnerReference controller(EtcdCopyBackupsTask task) {
    return controller("EtcdCopyBackupsTask", task.getMetadata());
  }

  /** Whether {@code object}'s controller is {@code etcd} (by uid). */
  public static boolean isControlledBy(io.fabric8.kubernetes.api.model.HasMetadata object,
      Etcd etcd) {
    var refs = object.getMetadata().getOwnerReferences();
    return refs != null && refs.stream().anyMatch(r -> Boolean.TRUE.equals(r.getController())
        && etcd.getMetadata().getUid().equals(r.getUid()));
  }

  private static OwnerReference controller(String kind, ObjectMeta owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(Etcd.GROUP + "/" + Etcd.VERSION)
        .withKind(kind)
        .withName(owner.getName())
        .withUid(owner.getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }
}
