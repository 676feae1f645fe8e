package cloud.gardener.druid.operator.status;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one writer of our resources' statuses (Etcd, EtcdOpsTask, EtcdCopyBackupsTask), with one
 * conflict policy. A reconcile decides a status from the object it read; the write replaces
 * the whole status in one update guarded by that object's {@code resourceVersion}, and is
 * skipped when it would change nothing (same serialised JSON).
 *
 * <p>On a conflict (HTTP 409: the object changed after it was read) the writer reads the
 * object again and
 * <ul>
 *   <li>writes again on the fresh version if its status is still the one the decision was
 *       made from: only metadata or spec moved (a finalizer added, the reconcile annotation
 *       removed, a user's edit), which the next reconcile handles; at most {@value #ATTEMPTS}
 *       attempts, then the conflict is thrown;</li>
 *   <li>otherwise (the status changed meanwhile: our own earlier write the cache had not
 *       shown yet, or another operator replica after a leader change) the decision is stale
 *       and is made again from the fresh object. {@link #decideAndWrite}
 *       does that at once, for a status that is a summary of a fresh observation (the Etcd's:
 *       it must be written before the reconcile's next step acts);
 *       {@link #write(CustomResource, Object)} throws {@link StaleStatusException} and the
 *       reconciler decides again after {@link #REDECIDE}, for a status that is a state
 *       machine the reconcile advances (the tasks'). A gone object is never written.</li>
 * </ul>
 * Never overwriting a status changed meanwhile matters because a status is also a record (a
 * task's outcome, a volume operation's completed members, condition transition times): a
 * status computed from an older one would erase what the newer one recorded. Not giving up on
 * every conflict matters because metadata changes are frequent and do not touch a decision.
 */
public final class StatusWriter {

  /** How soon a reconcile whose status write was stale decides again. */
  public static final Duration REDECIDE = Duration.ofMillis(200);
  static final int ATTEMPTS = 3;

  /** The status changed between the read a decision was made from and its write. */
  public static final class StaleStatusException extends RuntimeException {
    StaleStatusException(CustomResource<?, ?> resource) {
      super("the status of " + resource.getKind() + " " + resource.getMetadata().getNamespace()
          + "/" + resource.getMetadata().getName() + " changed meanwhile");
    }
  }

  private final KubernetesClient client;

  public StatusWriter(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Writes {@code next} as the status of {@code current} (the object it was decided from)
   * unless it equals the current status; returns the object as written, or {@code current}.
   *
   * @throws StaleStatusException if the status changed since {@code current} was read
   */
  public <S, R extends CustomResource<?, S>> R write(R current, S next) {
    if (same(current.getStatus(), next)) {
      return current;
    }
    R target = current;
    for (int attempt = 1; ; attempt++) {
      R copy = Serialization.clone(target);
      copy.setStatus(next);
      try {
        return client.resource(copy).updateStatus();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == ATTEMPTS) {
          throw e;
        }
        target = writeAgainOn(current, read(current))
            .orElseThrow(() -> new StaleStatusException(current));
      }
    }
  }

  /**
   * Writes the status {@code decide} makes of {@code current}; if that decision is stale
   * after a conflict, writes the status {@code decide} makes of the fresh object instead.
   * Returns the object as written, or as read if nothing changed.
   *
   * @throws StaleStatusException if the status changed again while deciding a second time
   */
  public <S, R extends CustomResource<?, S>> R decideAndWrite(R current, Function<R, S> decide) {
    try {
      return write(current, decide.apply(current));
    } catch (StaleStatusException e) {
      R fresh = read(current);
      return fresh == null ? current : write(fresh, decide.apply(fresh));
    }
  }

  private <R extends CustomResource<?, ?>> R read(R resource) {
    @SuppressWarnings("unchecked")
    Class<R> type = (Class<R>) resource.getClass();
    return client.resources(type).inNamespace(resource.getMetadata().getNamespace())
        .withName(resource.getMetadata().getName()).get();
  }

  /**
   * After a conflict: the fresh object to write again on, if its status is still the one the
   * decision was made from; empty if the decision is stale.
   */
  static <R extends CustomResource<?, ?>> Optional<R> writeAgainOn(R decidedFrom, R fresh) {
    return fresh != null && same(fresh.getStatus(), decidedFrom.getStatus())
        ? Optional.of(fresh) : Optional.empty();
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
