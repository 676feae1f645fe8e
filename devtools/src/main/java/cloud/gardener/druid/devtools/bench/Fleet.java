package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The benchmark's Etcds in one namespace, and one watch (an informer) on them: every wait
 * below reads that cache, so waiting costs the API server nothing.
 */
final class Fleet implements AutoCloseable {

  static final String TEMPLATE = "examples/etcd-1-local.yaml";

  private final KubernetesClient client;
  private final String namespace;
  private final SharedIndexInformer<Etcd> informer;

  Fleet(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
        .endMetadata().build()).serverSideApply();
    this.informer = client.resources(Etcd.class).inNamespace(namespace).inform();
  }

  /** Creates every Etcd of the plan, one request each. */
  void create(FleetPlan plan) {
    Etcd template = template();
    for (FleetPlan.Member m : plan.etcdsToCreate()) {
      Etcd etcd = Serialization.clone(template);
      etcd.getMetadata().setName(m.name());
      etcd.getMetadata().setNamespace(namespace);
      etcd.getSpec().setReplicas(m.replicas());
      etcd.getSpec().setLabels(Map.of("app", m.name()));
      etcd.getSpec().getBackup().getStore().setPrefix(namespace + "/" + m.name());
      client.resources(Etcd.class).inNamespace(namespace).resource(etcd).create();
    }
  }

  /**
   * Changes the spec of one Etcd to this full-snapshot schedule (which no member pod depends
   * on while hibernated) and returns the new generation; the schedule must differ from the
   * current one, or the generation stays.
   */
  long changeSpec(String name, String fullSnapshotSchedule) {
    String patch = "{\"spec\":{\"backup\":{\"fullSnapshotSchedule\":\""
        + fullSnapshotSchedule + "\"}}}";
    Etcd patched = client.resources(Etcd.class).inNamespace(namespace).withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    return patched.getMetadata().getGeneration();
  }

  /**
   * How many Etcds of the namespace the watch has, how many fulfil the rollout predicate, and
   * of the hibernated ones ({@code replicas: 0}) how many there are and fulfil it.
   */
  record Count(int seen, int complete, int hibernated, int hibernatedComplete) {
  }

  Count count() {
    List<Etcd> all = informer.getStore().list();
    List<Etcd> hibernated = all.stream()
        .filter(e -> Objects.equals(e.getSpec().getReplicas(), 0)).toList();
    return new Count(all.size(), (int) all.stream().filter(Fleet::reconciled).count(),
        hibernated.size(), (int) hibernated.stream().filter(Fleet::reconciled).count());
  }

  /**
   * Reconciled for the benchmark: the rollout predicate for an Etcd with members; for a
   * hibernated one {@code observedGeneration == generation} and {@code lastOperation}
   * {@code Succeeded}, because an Etcd created with {@code replicas: 0} never had conditions
   * (they keep their last status while hibernated), so the full predicate never holds for it.
   */
  static boolean reconciled(Etcd etcd) {
    if (!Objects.equals(etcd.getSpec().getReplicas(), 0)) {
      return RolloutCompletion.isComplete(etcd);
    }
    return etcd.getStatus() != null
        && Objects.equals(etcd.getStatus().getObservedGeneration(),
            etcd.getMetadata().getGeneration())
        && etcd.getStatus().getLastOperation() != null
        && RolloutCompletion.SUCCEEDED.equals(etcd.getStatus().getLastOperation().getState());
  }

  /** When the hibernated Etcds were all complete, and when all were (nanoTime). */
  record Completion(long hibernatedNanos, long allNanos) {
  }

  /** Waits until {@code expected} Etcds exist and all fulfil the predicate. */
  Completion awaitAllComplete(int expected, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long hibernatedDone = -1;
    while (true) {
      Count c = count();
      long now = System.nanoTime();
      if (hibernatedDone < 0 && c.seen() >= expected
          && c.hibernatedComplete() == c.hibernated()) {
        hibernatedDone = now;
      }
      if (c.seen() >= expected && c.complete() == c.seen()) {
        return new Completion(hibernatedDone, now);
      }
      if (now > deadline) {
        throw new IllegalStateException("after " + timeout + " only " + c.complete() + " of "
            + expected + " Etcds are reconciled (" + c.seen() + " seen); pending: "
            + firstPending());
      }
      Thread.sleep(20); // reading the local cache
    }
  }

  /**
   * Waits until the watch shows at least {@code changed} Etcds not complete, i.e. it has seen
   * the spec changes just made, so that a later "all complete" cannot be a stale reading.
   */
  void awaitPending(int changed, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Count c = count();
      if (c.seen() - c.complete() >= changed) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the watch did not show the " + changed
            + " spec changes within " + timeout);
      }
      Thread.sleep(20); // reading the local cache
    }
  }

  /** Waits until the watch shows {@code status.observedGeneration >= generation}; nanoTime. */
  long awaitObserved(String name, long generation, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String key = namespace + "/" + name;
    while (true) {
      Etcd e = informer.getStore().getByKey(key);
      Long observed = e == null || e.getStatus() == null ? null
          : e.getStatus().getObservedGeneration();
      if (observed != null && observed >= generation) {
        return System.nanoTime();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(key + ": observedGeneration " + observed + " did not"
            + " reach " + generation + " within " + timeout);
      }
      Thread.sleep(2); // reading the local cache
    }
  }

  private String firstPending() {
    return informer.getStore().list().stream().filter(e -> !reconciled(e))
        .findFirst().map(e -> e.getMetadata().getName() + " "
            + RolloutCompletion.pendingReasons(e)).orElse("none");
  }

  private static Etcd template() {
    try (InputStream in = Fleet.class.getClassLoader().getResourceAsStream(TEMPLATE)) {
      return Serialization.unmarshal(Objects.requireNonNull(in, TEMPLATE + " missing from the jar"),
          Etcd.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    informer.close();
  }
}
