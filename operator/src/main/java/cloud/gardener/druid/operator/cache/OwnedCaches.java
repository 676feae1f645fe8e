package cloud.gardener.druid.operator.cache;

import cloud.gardener.druid.api.Labels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdOpsTask;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.health.Status;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The informer caches of everything the operator owns, shared by the controllers: they are
 * the Etcd controller's event sources (an event of any owned object reconciles its Etcd) and
 * the reads of the observer and the components. Owned kinds are watched with the
 * {@code managed-by} label selector, so memory holds only the operator's objects; EtcdOpsTasks
 * (ours by kind) and StorageClasses (few, cluster-scoped) are watched whole.
 *
 * <p>A cache can lag behind the operator's own writes; {@link ReadYourWrites} says when a read
 * may trust it. Before the event sources start (or in unit tests) {@link #ready()} is false
 * and readers fall back to the API server.
 */
public final class OwnedCaches {

  /** The owned kinds: each carries the managed-by label and an owner reference to its Etcd. */
  public static final List<Class<? extends HasMetadata>> OWNED = List.of(Pod.class,
      PersistentVolumeClaim.class, Lease.class, Service.class, ConfigMap.class,
      PodDisruptionBudget.class, ServiceAccount.class, Role.class, RoleBinding.class,
      Secret.class);

  private static final String BY_ETCD = "etcd";

  private final Map<Class<?>, InformerEventSource<?, Etcd>> sources = new ConcurrentHashMap<>();
  private final ReadYourWrites expected = new ReadYourWrites();
  private volatile IndexerResourceCache<Etcd> etcds;

  /** What the caches must show before a read for an Etcd may trust them. */
  public ReadYourWrites expected() {
    return expected;
  }

  /** Creates the event sources of the Etcd controller and keeps them as this cache. */
  public List<EventSource<?, Etcd>> eventSources(EventSourceContext<Etcd> context) {
    etcds = context.getPrimaryCache();
    List<EventSource<?, Etcd>> created = new ArrayList<>();
    OWNED.forEach(type -> created.add(keepOwned(context, type)));
    created.add(keep(EtcdOpsTask.class, new InformerEventSource<>(InformerEventSourceConfiguration
        .from(EtcdOpsTask.class, Etcd.class).withName("EtcdOpsTask")
        .withSecondaryToPrimaryMapper(t -> t.getSpec() == null || t.getSpec().getEtcdName() == null
            ? Set.of() : Set.of(new ResourceID(t.getSpec().getEtcdName(),
                t.getMetadata().getNamespace())))
        .build(), context)));
    created.add(keep(StorageClass.class, new InformerEventSource<>(InformerEventSourceConfiguration
        .from(StorageClass.class, Etcd.class).withName("StorageClass").withWatchAllNamespaces()
        .withSecondaryToPrimaryMapper(sc -> context.getPrimaryCache()
            .list(e -> usesClass(e, sc)).map(ResourceID::fromResource)
            .collect(Collectors.toSet()))
        .build(), context)));
    return created;
  }

  private <R extends HasMetadata> EventSource<?, Etcd> keepOwned(
      EventSourceContext<Etcd> context, Class<R> type) {
    return keep(type, owned(context, type));
  }

  private static <R extends HasMetadata> InformerEventSource<R, Etcd> owned(
      EventSourceContext<Etcd> context, Class<R> type) {
    InformerEventSourceConfiguration.Builder<R> config = InformerEventSourceConfiguration
        .from(type, Etcd.class)
        .withName(type.getSimpleName())
        .withLabelSelector(Labels.MANAGED_BY + "=" + Labels.MANAGED_BY_VALUE)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Etcd.class));
    if (type == Lease.class) {
      config.withOnUpdateFilter((n, o) -> !onlyRenewed((Lease) n, (Lease) o));
    }
    InformerEventSource<R, Etcd> source = new InformerEventSource<>(config.build(), context);
    source.addIndexers(Map.of(BY_ETCD, o -> o.getMetadata().getLabels() == null
        || !o.getMetadata().getLabels().containsKey(Labels.PART_OF) ? List.of()
        : List.of(etcdKey(o.getMetadata().getNamespace(),
            o.getMetadata().getLabels().get(Labels.PART_OF)))));
    return source;
  }

  /**
   * Whether a lease update only renewed it (the agents do that every few seconds): no reason
   * to reconcile; what a renewal changes over time is looked at by the running resync.
   */
  static boolean onlyRenewed(Lease now, Lease before) {
    if (now.getSpec() == null || before.getSpec() == null) {
      return false;
    }
    return Objects.equals(now.getMetadata().getLabels(), before.getMetadata().getLabels())
        && Objects.equals(now.getMetadata().getAnnotations(), before.getMetadata().getAnnotations())
        && Objects.equals(now.getMetadata().getDeletionTimestamp(),
            before.getMetadata().getDeletionTimestamp())
        && Objects.equals(now.getSpec().getHolderIdentity(), before.getSpec().getHolderIdentity())
        && Objects.equals(now.getSpec().getLeaseDurationSeconds(),
            before.getSpec().getLeaseDurationSeconds());
  }

  /** An Etcd without a class uses the default class; any StorageClass event may change that. */
  private static boolean usesClass(Etcd etcd, StorageClass sc) {
    String wanted = etcd.getSpec() == null ? null : etcd.getSpec().getStorageClass();
    return wanted == null || wanted.equals(sc.getMetadata().getName());
  }

  private <R extends HasMetadata> EventSource<?, Etcd> keep(Class<R> type,
      InformerEventSource<R, Etcd> source) {
    sources.put(type, source);
    return source;
  }

  /**
   * Whether the caches can be read: created, started, synced and watching (before the Etcd
   * controller starts, or while a watch reconnects, readers go to the API server).
   */
  public boolean ready() {
    return sources.containsKey(Pod.class)
        && sources.values().stream().allMatch(s -> s.getStatus() == Status.HEALTHY);
  }

  /** The Etcd from the controller's own (primary) cache. */
  public Optional<Etcd> etcd(String namespace, String name) {
    return etcds.get(new ResourceID(name, namespace));
  }

  /** The cached objects of {@code type} labelled as part of {@code etcd}. */
  public <R extends HasMetadata> List<R> ofEtcd(Class<R> type, Etcd etcd) {
    return source(type).byIndex(BY_ETCD,
        etcdKey(etcd.getMetadata().getNamespace(), etcd.getMetadata().getName()));
  }

  /**
   * The informer's own copy of {@code etcd}'s object {@code name} (never JOSDK's temporary
   * copy of a write): what {@link ReadYourWrites} checks.
   */
  public <R extends HasMetadata> Optional<R> informed(Class<R> type, Etcd etcd, String name) {
    return ofEtcd(type, etcd).stream().filter(o -> name.equals(o.getMetadata().getName()))
        .findFirst();
  }

  /** The cached object, or the operator's own newer write JOSDK holds until the cache has it. */
  public <R extends HasMetadata> Optional<R> get(Class<R> type, String namespace, String name) {
    return source(type).get(new ResourceID(name, namespace));
  }

  /**
   * Whether the cache shows an unfinished EtcdOpsTask for {@code etcd}. Only then is the fresh
   * read of its volume task worth making: a task the cache does not show yet brings its own
   * event, and a finished task never runs again.
   */
  public boolean hasUnfinishedTask(Etcd etcd) {
    return source(EtcdOpsTask.class).list(etcd.getMetadata().getNamespace(),
        t -> t.getSpec() != null && etcd.getMetadata().getName().equals(t.getSpec().getEtcdName())
            && (t.getStatus() == null || !t.getStatus().isFinished())).findAny().isPresent();
  }

  /** Every cached object of {@code type} in {@code namespace} ({@code null}: cluster-scoped). */
  public <R extends HasMetadata> List<R> all(Class<R> type, String namespace) {
    return (namespace == null ? source(type).list(o -> true) : source(type).list(namespace,
        o -> true)).toList();
  }

  /**
   * Tells the cache about the operator's own write, so a {@link #get} right after it returns
   * the written object even before the informer has it (JOSDK's temporary resource cache).
   */
  public <R extends HasMetadata> void wrote(R written, R previous) {
    if (!ready() || written == null) {
      return;
    }
    @SuppressWarnings("unchecked")
    InformerEventSource<R, Etcd> source = (InformerEventSource<R, Etcd>) sources.get(
        written.getClass());
    if (source == null) {
      return;
    }
    ResourceID id = ResourceID.fromResource(written);
    if (previous == null) {
      source.handleRecentResourceCreate(id, written);
    } else {
      source.handleRecentResourceUpdate(id, written, previous);
    }
  }

  @SuppressWarnings("unchecked")
  private <R extends HasMetadata> InformerEventSource<R, Etcd> source(Class<R> type) {
    InformerEventSource<?, Etcd> source = sources.get(type);
    if (source == null) {
      throw new IllegalStateException("no cache of " + type.getSimpleName());
    }
    return (InformerEventSource<R, Etcd>) source;
  }

  private static String etcdKey(String namespace, String etcd) {
    return namespace + "/" + etcd;
  }
}
