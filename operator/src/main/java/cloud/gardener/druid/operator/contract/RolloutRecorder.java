package cloud.gardener.druid.operator.contract;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.RolloutCompletion;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.MemberPodBuilder;
import cloud.gardener.druid.operator.model.TrustedCas;
import cloud.gardener.druid.operator.model.OperatorSettings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Records every version of an Etcd and every change of its member pods, as the API server
 * reports them, and checks the rollout invariant over the merged history ordered by
 * resourceVersion: no Etcd version that satisfies the completion predicate may exist while a
 * member pod of an older revision exists or a member pod is not ready. The operator ITs and
 * {@code druid bench chaos} check the rollout contract ({@code docs/rollout-contract.md}) with it.
 */
public final class RolloutRecorder implements AutoCloseable {

  public static final Duration CATCH_UP = Duration.ofSeconds(10);

  private record Entry(BigInteger version, String kind, String action, HasMetadata object,
      long receivedNanos, String clusterVersion) {
  }

  private final List<Entry> entries = new ArrayList<>();
  private final OperatorSettings settings;
  private final WatchGaps gaps = new WatchGaps();
  private ResumableWatches watches;
  /** Asks etcd itself for its cluster version when a complete status arrives; null: never. */
  private volatile Supplier<String> clusterVersionProbe;
  /**
   * The Etcd with the checksum of its CA bundles as the operator gives it (part of the member
   * revision): the peer bundle from the operator's copy as recorded (its version at the
   * recorded Etcd's), the client bundle from the Secret as it is now (assumed unchanged).
   */
  private java.util.function.BiFunction<Etcd, Map<String, Secret>, Etcd> withTrustedCas =
      (e, secrets) -> e;
  /** Reads the recorded Etcd as the API server has it now. */
  private Supplier<Etcd> current = () -> null;

  private RolloutRecorder(OperatorSettings settings) {
    this.settings = settings;
  }

  public static RolloutRecorder start(KubernetesClient client, Etcd etcd, OperatorSettings settings) {
    RolloutRecorder r = new RolloutRecorder(settings);
    r.withTrustedCas = (e, recorded) -> TrustedCas.withChecksum(e, TrustedCas.compute(e,
        (namespace, name) -> recorded.containsKey(name) ? recorded.get(name)
            : client.secrets().inNamespace(namespace).withName(name).get()));
    String ns = etcd.getMetadata().getNamespace();
    var etcds = client.resources(Etcd.class).inNamespace(ns).withName(etcd.getMetadata().getName());
    r.current = etcds::get;
    r.watches = new ResumableWatches(etcds, client.pods().inNamespace(ns)
        .withLabels(EtcdLabels.memberSelector(etcd)),
        client.secrets().inNamespace(ns).withName(EtcdNames.of(etcd).peerTlsSecret()),
        r.sink());
    r.watches.start();
    return r;
  }

  private ResumableWatches.Sink sink() {
    return new ResumableWatches.Sink() {
      @Override
      public void listed(boolean resuming, PodList pods, Etcd etcd, Secret peerTls) {
        recordList(resuming, pods, etcd, peerTls);
      }

      @Override
      public void event(String kind, String action, HasMetadata object) {
        add(kind, action, object);
      }

      @Override
      public void broken() {
        add("Error", "CLOSED", null);
      }
    };
  }

  /**
   * The first list as it is; a later one only where it shows what the watches did not deliver
   * ({@link WatchGaps}), a pod gone unseen as deleted at the list's version.
   */
  private synchronized void recordList(boolean resuming, PodList podList, Etcd now,
      Secret peerTls) {
    if (!resuming) {
      podList.getItems().forEach(p -> add("Pod", "ADDED", p));
      if (peerTls != null) {
        add("Secret", "ADDED", peerTls);
      }
      add("Etcd", "ADDED", now);
      return;
    }
    if (peerTls != null) {
      gaps.relisted("Secret", List.of(peerTls),
          new BigInteger(peerTls.getMetadata().getResourceVersion()))
          .changed().forEach(c -> add("Secret", "RELISTED", c));
    }
    gaps.resumed();
    String listVersion = podList.getMetadata().getResourceVersion();
    var relisted = gaps.relisted("Pod", podList.getItems(), new BigInteger(listVersion));
    relisted.changed().forEach(p -> add("Pod", "RELISTED", p));
    relisted.gone().forEach(name -> add("Pod", "DELETED", new PodBuilder().withNewMetadata()
        .withName(name).withResourceVersion(listVersion).endMetadata().build()));
    gaps.relisted("Etcd", List.of(now), new BigInteger(now.getMetadata().getResourceVersion()))
        .changed().forEach(e -> add("Etcd", "RELISTED", e));
  }

  /**
   * Resumes the watches from a fresh list ({@link ResumableWatches}); throws while the API
   * server does not answer. Whatever changed unseen before the list is not observed ({@link
   * #unobserved}).
   */
  public void resume() {
    watches.resume();
  }

  /**
   * How often the watches resumed from a list, and the changes only the lists showed: {@code
   * resumed 2 times; 3 Pod changes seen only by a relist, no Etcd version among them}.
   */
  public synchronized String resumptions() {
    int unseen = gaps.gaps().stream().mapToInt(WatchGaps.Gap::changes).sum();
    return "resumed " + gaps.resumptions() + " times; " + unseen
        + " changes seen only by a relist";
  }

  /**
   * The gaps of resumed watches that may hide an Etcd version the invariant was not judged
   * at ({@link WatchGaps#incomplete}): the violations cover the observed versions only.
   */
  public synchronized List<String> unobserved() {
    return gaps.incomplete(entries.stream().filter(e -> e.kind().equals("Etcd")
        && e.object() != null).map(Entry::version).toList());
  }

  /**
   * Also checks etcd's cluster version (from etcd, as {@code probe} reads it) each time a
   * complete status arrives: it must be the spec's minor then.
   */
  public RolloutRecorder probingClusterVersion(Supplier<String> probe) {
    this.clusterVersionProbe = probe;
    return this;
  }

  private void add(String kind, String action, HasMetadata object) {
    var probe = clusterVersionProbe;
    String cluster = probe != null && object instanceof Etcd etcd
        && RolloutCompletion.isComplete(etcd) ? probe.get() : null;
    synchronized (this) {
      BigInteger version = object == null ? BigInteger.valueOf(-1)
          : new BigInteger(object.getMetadata().getResourceVersion());
      entries.add(new Entry(version, kind, action,
          object == null ? null : Serialization.clone(object), System.nanoTime(), cluster));
      if (object != null) {
        gaps.seen(kind, action, object);
      }
    }
  }

  /** One line per recorded change, for diagnostics. */
  public synchronized String describe() {
    StringBuilder sb = new StringBuilder();
    entries.stream().filter(e -> e.object() != null && !e.kind().equals("Secret"))
        .sorted(Comparator.comparing(Entry::version))
        .forEach(e -> sb.append(e.version()).append(' ').append(e.kind()).append(' ')
            .append(e.action()).append(' ').append(e.object().getMetadata().getName())
            .append(e.kind().equals("Pod") ? " rev=" + e.object().getMetadata().getLabels()
                .get(Labels.MEMBER_REVISION) + " ready=" + ready((Pod) e.object())
                : " gen=" + e.object().getMetadata().getGeneration() + " complete="
                + RolloutCompletion.isComplete((Etcd) e.object()))
            .append(" t=").append(e.receivedNanos() / 1_000_000).append('\n'));
    return sb.toString();
  }

  public synchronized int etcdVersions() {
    return (int) entries.stream().filter(e -> e.kind().equals("Etcd")).count();
  }

  /** {@code status.lastOperation.description} of every recorded Etcd version, in order. */
  public synchronized List<String> lastOperations() {
    return entries.stream().filter(e -> e.kind().equals("Etcd") && e.object() != null)
        .sorted(Comparator.comparing(Entry::version))
        .map(e -> ((Etcd) e.object()).getStatus())
        .filter(st -> st != null && st.getLastOperation() != null)
        .map(st -> st.getLastOperation().getDescription())
        .toList();
  }

  /**
   * Waits (at most {@link #CATCH_UP}) until the watch delivered the Etcd's version the API
   * server has now: a test that read a complete Etcd asks about a history that holds it.
   */
  private void catchUp() {
    Etcd now = current.get();
    if (now == null) {
      return;
    }
    BigInteger wanted = new BigInteger(now.getMetadata().getResourceVersion());
    long deadline = System.nanoTime() + CATCH_UP.toNanos();
    while (newestEtcdVersion().compareTo(wanted) < 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the recorder's watch did not deliver resourceVersion "
            + wanted + " of the Etcd within " + CATCH_UP);
      }
      try {
        Thread.sleep(50); // the watch delivers on its own thread
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while catching up", e);
      }
    }
  }

  private synchronized BigInteger newestEtcdVersion() {
    return entries.stream().filter(e -> e.kind().equals("Etcd")).map(Entry::version)
        .max(Comparator.naturalOrder()).orElse(BigInteger.valueOf(-1));
  }

  /** Every violation of the invariant in the recorded history; empty when it held. */
  public List<String> violations() {
    catchUp();
    return recordedViolations();
  }

  private synchronized List<String> recordedViolations() {
    List<String> violations = new ArrayList<>();
    if (entries.stream().anyMatch(e -> e.kind().equals("Error"))) {
      violations.add("a watch broke: the history is incomplete");
    }
    Map<String, Pod> pods = new TreeMap<>();
    Map<String, Secret> secrets = new TreeMap<>();
    List<Entry> ordered = entries.stream().filter(e -> e.object() != null)
        .sorted(Comparator.comparing(Entry::version)).toList();
    for (Entry e : ordered) {
      if (e.kind().equals("Secret")) {
        secrets.put(e.object().getMetadata().getName(), (Secret) e.object());
        continue;
      }
      if (e.kind().equals("Pod")) {
        if (e.action().equals("DELETED")) {
          pods.remove(e.object().getMetadata().getName());
        } else {
          pods.put(e.object().getMetadata().getName(), (Pod) e.object());
        }
        continue;
      }
      Etcd etcd = (Etcd) e.object();
      if (!RolloutCompletion.isComplete(etcd)) {
        continue;
      }
      String minor = etcd.getSpec().getEtcd().getVersion();
      if (e.clusterVersion() != null && minor != null
          && !e.clusterVersion().startsWith(minor + ".")) {
        violations.add("rv " + e.version() + ": complete while etcd's cluster version is "
            + e.clusterVersion() + ", not " + minor);
      }
      String desired = MemberPodBuilder.revision(withTrustedCas.apply(etcd, secrets),
          settings);
      int replicas = etcd.getSpec().getReplicas();
      if (pods.size() != replicas) {
        violations.add("rv " + e.version() + ": complete with " + pods.size() + " pods for "
            + replicas + " replicas");
      }
      pods.values().forEach(p -> {
        String revision = p.getMetadata().getLabels().get(Labels.MEMBER_REVISION);
        if (!desired.equals(revision)) {
          violations.add("rv " + e.version() + ": complete while " + p.getMetadata().getName()
              + " runs revision " + revision + " instead of " + desired);
        }
        if (!ready(p)) {
          violations.add("rv " + e.version() + ": complete while " + p.getMetadata().getName()
              + " is not ready");
        }
      });
    }
    return violations;
  }

  /**
   * The recorded Etcd versions that satisfied the predicate while status.certificates named a
   * step of a CA rotation (any phase but Completed): each one breaks the rollout contract.
   */
  public synchronized List<String> completeDuringCertificateSteps() {
    return entries.stream().filter(e -> e.kind().equals("Etcd") && e.object() != null)
        .filter(e -> RolloutCompletion.isComplete((Etcd) e.object()))
        .filter(e -> {
          var certificates = ((Etcd) e.object()).getStatus().getCertificates();
          return certificates != null && certificates.stream()
              .anyMatch(c -> !"Completed".equals(c.getPhase()));
        })
        .map(e -> "rv " + e.version()).toList();
  }

  /** How many recorded Etcd versions satisfied the predicate for {@code generation}. */
  public long completeVersions(long generation) {
    catchUp();
    return recordedCompleteVersions(generation);
  }

  private synchronized long recordedCompleteVersions(long generation) {
    return entries.stream().filter(e -> e.kind().equals("Etcd") && e.object() != null)
        .map(e -> (Etcd) e.object())
        .filter(etcd -> etcd.getMetadata().getGeneration() == generation)
        .filter(RolloutCompletion::isComplete).count();
  }

  /** Names of member pods that got a deletion timestamp during the recording, in order. */
  public synchronized List<String> restartedPods() {
    List<String> names = new ArrayList<>();
    entries.stream().filter(e -> e.kind().equals("Pod") && e.object() != null)
        .sorted(Comparator.comparing(Entry::version))
        .filter(e -> e.object().getMetadata().getDeletionTimestamp() != null)
        .map(e -> e.object().getMetadata().getName())
        .forEach(n -> {
          if (!names.contains(n)) {
            names.add(n);
          }
        });
    return names;
  }

  /**
   * How many member pods (by uid) got a deletion timestamp in an event received at or after
   * {@code sinceNanos} ({@link System#nanoTime}): each is one restart or removal the operator
   * made.
   */
  public synchronized long podDeletionsSince(long sinceNanos) {
    return entries.stream().filter(e -> e.kind().equals("Pod") && e.object() != null)
        .filter(e -> e.receivedNanos() >= sinceNanos)
        .filter(e -> e.object().getMetadata().getDeletionTimestamp() != null)
        .map(e -> e.object().getMetadata().getUid()).distinct().count();
  }

  /**
   * Members whose pod was deleted while the newest Etcd status before that moment (which the
   * operator computed from etcd itself) listed them as Leader.
   */
  public synchronized List<String> restartedLeaders() {
    List<String> leaders = new ArrayList<>();
    Etcd last = null;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Entry e : entries.stream().filter(x -> x.object() != null)
        .sorted(Comparator.comparing(Entry::version)).toList()) {
      if (e.kind().equals("Etcd")) {
        last = (Etcd) e.object();
      } else if (e.object().getMetadata().getDeletionTimestamp() != null
          && seen.add(e.object().getMetadata().getName()) && last != null
          && last.getStatus() != null && last.getStatus().getMembers() != null) {
        String name = e.object().getMetadata().getName();
        last.getStatus().getMembers().stream()
            .filter(m -> name.equals(m.getName()) && "Leader".equals(m.getRole()))
            .findFirst().ifPresent(m -> leaders.add(name));
      }
    }
    return leaders;
  }

  /**
   * For the rollout of {@code generation}: the time from when the last member pod of the
   * desired revision was seen Ready (among pod versions older than the completing status) to
   * when the first status satisfying the predicate was seen, both as received by this client;
   * empty when either is missing.
   */
  public synchronized java.util.Optional<java.time.Duration> readyToComplete(long generation) {
    java.util.Optional<Entry> complete = entries.stream()
        .filter(e -> e.kind().equals("Etcd") && e.object() != null)
        .filter(e -> e.object().getMetadata().getGeneration() == generation
            && RolloutCompletion.isComplete((Etcd) e.object()))
        .min(Comparator.comparingLong(Entry::receivedNanos));
    if (complete.isEmpty()) {
      return java.util.Optional.empty();
    }
    Map<String, Secret> secrets = new TreeMap<>();
    entries.stream().filter(e -> e.kind().equals("Secret") && e.object() != null)
        .filter(e -> e.version().compareTo(complete.get().version()) < 0)
        .sorted(Comparator.comparing(Entry::version))
        .forEach(e -> secrets.put(e.object().getMetadata().getName(), (Secret) e.object()));
    String desired = MemberPodBuilder.revision(withTrustedCas.apply(
        (Etcd) complete.get().object(), secrets), settings);
    Map<String, Long> firstReady = new TreeMap<>();
    entries.stream().filter(e -> e.kind().equals("Pod") && e.object() != null)
        .filter(e -> e.version().compareTo(complete.get().version()) < 0)
        .filter(e -> desired.equals(e.object().getMetadata().getLabels().get(Labels.MEMBER_REVISION)))
        .filter(e -> ready((Pod) e.object()))
        .forEach(e -> firstReady.merge(e.object().getMetadata().getName(), e.receivedNanos(), Math::min));
    // the two watches are separate streams: the status may arrive before the pod event that
    // precedes it in resourceVersion order; that counts as no delay
    return firstReady.values().stream().max(Long::compare).map(t ->
        java.time.Duration.ofNanos(Math.max(0, complete.get().receivedNanos() - t)));
  }

  private static boolean ready(Pod p) {
    return p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
        && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Override
  public void close() {
    watches.close();
  }
}
