package cloud.gardener.druid.cli.shared;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.client.dsl.Resource;

/** Reading the Etcd a command names. */
public final class Etcds {

  private Etcds() {
  }

  /** The Etcd, or a {@link ExitCodes#NOT_FOUND} error naming it. */
  public static Etcd get(Resource<Etcd> resource, String namespace, String name) {
    Etcd etcd = resource.get();
    if (etcd == null) {
      throw new UserError("etcd " + namespace + "/" + name + " not found", ExitCodes.NOT_FOUND);
    }
    return etcd;
  }
}
