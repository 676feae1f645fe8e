package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Consumer;

/**
 * Edits an Etcd as a user would: read, change, write; on a conflict (the operator wrote the
 * status in between) read again and retry.
 */
public final class EtcdEdits {

  private static final int ATTEMPTS = 10;

  private EtcdEdits() {
  }

  public static Etcd edit(KubernetesClient client, String name, Consumer<Etcd> change) {
    return edit(client, client.getNamespace(), name, change);
  }

  public static Etcd edit(KubernetesClient client, String namespace, String name,
      Consumer<Etcd> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return client.resources(Etcd.class).inNamespace(namespace).withName(name).edit(e -> {
          change.accept(e);
          return e;
        });
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
