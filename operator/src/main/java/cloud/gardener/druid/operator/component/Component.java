package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * One kind of object the operator manages for an Etcd (etcd-druid's component pattern): the
 * Etcd reconciler syncs the components in a fixed order and deletes them on cleanup.
 */
public interface Component {

  /** Short upper-case name used in error codes, e.g. {@code SERVICE_ACCOUNT}. */
  String name();

  /** Makes the objects of this kind match the Etcd's spec (server-side apply). */
  void sync(Etcd etcd);

  /** Deletes every object of this kind that belongs to the Etcd. */
  void delete(Etcd etcd);

  /**
   * Whether this kind is one of upstream's runtime components, which an Etcd annotated with
   * {@code disable-etcd-runtime-component-creation} does not have.
   */
  default boolean runtime() {
    return true;
  }

  /** The objects of this kind that exist for the Etcd. */
  List<? extends HasMetadata> listExisting(Etcd etcd);
}
