package cloud.gardener.druid.operator.status;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Objects;

/**
 * The only writer of Etcd status: replaces the whole status in one update, skips writes that
 * change nothing, and on a conflict re-reads the object and writes again (the status was
 * computed from a fresh observation, so it is still the newest truth).
 */
public final class StatusWriter {

  private static final int ATTEMPTS = 3;

  private final KubernetesClient client;

  public StatusWriter(KubernetesClient client) {
    this.client = client;
  }

  /** Writes {@code next} unless it equals the status of {@code current}; true if written. */
  public boolean write(Etcd current, EtcdStatus next) {
    if (same(current.getStatus(), next)) {
      return false;
    }
    var resource = client.resources(Etcd.class).inNamespace(current.getMetadata().getNamespace())
        .withName(current.getMetadata().getName());
    Etcd target = current;
    for (int attempt = 1; ; attempt++) {
      Etcd copy = Serialization.clone(target);
      copy.setStatus(next);
      try {
        client.resource(copy).updateStatus();
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == ATTEMPTS) {
          throw e;
        }
        target = resource.get();
        if (target == null) {
          return false;
        }
      }
    }
  }

  /**
   * Whether two statuses (of any of our resources) serialise to the same JSON: what the API
   * server would store, so a write between them changes nothing.
   */
  public static boolean same(Object a, Object b) {
    return Objects.equals(Serialization.jsonMapper().valueToTree(a),
        Serialization.jsonMapper().valueToTree(b));
  }
}
