package cloud.gardener.druid.operator.cache;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Per Etcd, the state of its objects the operator knows to be current because it wrote them
 * or read them straight from the API server after writing: the caches may be trusted for that
 * Etcd only once they show at least that state. An expectation is one object either present
 * at or after a resourceVersion, or gone (a deleted UID no longer cached). Once every
 * expectation of an Etcd is met they are dropped: informers apply events in order, so a cache
 * that has caught up never falls behind that state again.
 *
 * <p>This is the one home of the read-your-writes rule; {@code EtcdObserver} waits (bounded)
 * for {@link #caughtUp} before it reads from the caches and reads the API server instead when
 * the wait runs out.
 */
public final class ReadYourWrites {

  /** What the cache must show of one object. */
  sealed interface Expectation {

    Class<? extends HasMetadata> type();

    String name();

    /** Present at {@code resourceVersion} or later (gone also counts if it was terminating). */
    record Present(Class<? extends HasMetadata> type, String name, String resourceVersion,
        boolean terminating) implements Expectation {
    }

    /** The object with {@code uid} no longer exists. */
    record Gone(Class<? extends HasMetadata> type, String name, String uid)
        implements Expectation {
    }
  }

  /** The kinds the observer reads: expectations on other kinds would hold nothing back. */
  static final Set<Class<? extends HasMetadata>> OBSERVED = Set.of(Pod.class,
      PersistentVolumeClaim.class, Lease.class);

  private final Map<String, Map<String, Expectation>> byEtcd = new ConcurrentHashMap<>();

  /** The operator wrote {@code written} (the object as the API server returned it). */
  public void wrote(Etcd etcd, HasMetadata written) {
    if (OBSERVED.contains(written.getClass())) {
      expect(etcd, present(written));
    }
  }

  /**
   * The operator read {@code type} for {@code etcd} straight from the API server
   * ({@code fresh}) while the cache held {@code cached}: the cache must show every fresh
   * object at least as new, and none of the cached objects the fresh read no longer has.
   */
  public <R extends HasMetadata> void readFresh(Etcd etcd, Class<R> type,
      Collection<R> fresh, Collection<R> cached) {
    Set<String> freshUids = fresh.stream().map(o -> o.getMetadata().getUid())
        .collect(Collectors.toSet());
    List<Expectation> expected = new ArrayList<>();
    fresh.forEach(o -> expected.add(present(o)));
    cached.stream().filter(o -> !freshUids.contains(o.getMetadata().getUid()))
        .forEach(o -> expected.add(new Expectation.Gone(type, o.getMetadata().getName(),
            o.getMetadata().getUid())));
    expected.forEach(e -> expect(etcd, e));
  }

  /** Whether {@code caches} show everything expected for {@code etcd}; drops what they do. */
  public boolean caughtUp(Etcd etcd, OwnedCaches caches) {
    Map<String, Expectation> expected = byEtcd.get(etcd.getMetadata().getUid());
    if (expected == null) {
      return true;
    }
    expected.values().removeIf(e -> met(e, caches.informed(e.type(), etcd, e.name())));
    if (expected.isEmpty()) {
      byEtcd.remove(etcd.getMetadata().getUid(), expected);
      return true;
    }
    return false;
  }

  /** Forgets an Etcd (it is gone). */
  public void forget(Etcd etcd) {
    byEtcd.remove(etcd.getMetadata().getUid());
  }

  static boolean met(Expectation e, Optional<? extends HasMetadata> cached) {
    if (e instanceof Expectation.Present p) {
      return cached.map(c -> atLeast(c.getMetadata().getResourceVersion(), p.resourceVersion()))
          .orElse(p.terminating());
    }
    Expectation.Gone g = (Expectation.Gone) e;
    return cached.map(c -> !g.uid().equals(c.getMetadata().getUid())).orElse(true);
  }

  /**
   * Whether resourceVersion {@code seen} is at or after {@code wanted}. Kubernetes says they
   * are opaque, but every API server backed by etcd issues them as increasing integers (as
   * JOSDK's own read-after-write check assumes); unparsable ones must be equal.
   */
  public static boolean atLeast(String seen, String wanted) {
    if (seen == null || wanted == null) {
      return false;
    }
    try {
      return Long.parseLong(seen) >= Long.parseLong(wanted);
    } catch (NumberFormatException e) {
      return seen.equals(wanted);
    }
  }

  private void expect(Etcd etcd, Expectation e) {
    byEtcd.computeIfAbsent(etcd.getMetadata().getUid(), k -> new ConcurrentHashMap<>())
        .put(e.type().getSimpleName() + "/" + e.name(), e);
  }

  private static Expectation present(HasMetadata o) {
    return new Expectation.Present(o.getClass(), o.getMetadata().getName(),
        o.getMetadata().getResourceVersion(), o.getMetadata().getDeletionTimestamp() != null);
  }
}
