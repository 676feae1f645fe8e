package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import cloud.gardener.druid.operator.cache.ReadYourWrites;
import cloud.gardener.druid.operator.model.EtcdLabels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A component whose desired objects come from a pure builder and are written with server-side
 * apply under our field manager; objects of the kind carrying the Etcd's labels that are no
 * longer desired are deleted.
 *
 * <p>An object is applied only when needed: each desired object carries the hash of itself in
 * {@value #DESIRED_HASH}, and it is skipped when the cached object has the same hash and was
 * not changed by anyone since the operator last applied or saw it (its resourceVersion is not
 * newer than the one remembered). A change by another writer is thus repaired on the next
 * reconcile (which its own event triggers). After an operator restart nothing is remembered
 * and the hash alone decides (a drift made while the operator was down is repaired with the
 * next change). Kinds others write routinely (the agents renew the leases) compare the hash
 * only.
 */
abstract class AppliedComponent<T extends HasMetadata> implements Component {

  static final String FIELD_MANAGER = "etcd-druid";
  static final String DESIRED_HASH = "druid.gardener.cloud/desired-hash";

  protected final KubernetesClient client;
  private final OwnedCaches caches;
  private final Class<T> type;
  private final String name;
  private final Map<String, String> appliedVersions = new ConcurrentHashMap<>();

  AppliedComponent(KubernetesClient client, OwnedCaches caches, Class<T> type, String name) {
    this.client = client;
    this.caches = caches;
    this.type = type;
    this.name = name;
  }

  /** The objects the Etcd's spec asks for. */
  abstract List<T> desired(Etcd etcd);

  /** Whether another writer's change of the object is to be undone (false: only the hash). */
  boolean repairsDrift() {
    return true;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void sync(Etcd etcd) {
    List<T> desired = desired(etcd);
    for (T object : desired) {
      String hash = hash(object);
      Map<String, String> annotations = new LinkedHashMap<>(
          Optional.ofNullable(object.getMetadata().getAnnotations()).orElse(Map.of()));
      annotations.put(DESIRED_HASH, hash);
      object.getMetadata().setAnnotations(annotations);
      Optional<T> cached = caches.ready() ? caches.get(type,
          object.getMetadata().getNamespace(), object.getMetadata().getName()) : Optional.empty();
      if (cached.filter(c -> upToDate(c, hash)).isPresent()) {
        continue;
      }
      T written = client.resource(object).fieldManager(FIELD_MANAGER).forceConflicts()
          .serverSideApply();
      appliedVersions.put(key(written), written.getMetadata().getResourceVersion());
      caches.wrote(written, cached.orElse(null));
      caches.expected().wrote(etcd, written);
    }
    Set<String> wanted = desired.stream().map(o -> o.getMetadata().getName())
        .collect(Collectors.toSet());
    listExisting(etcd).stream().filter(o -> !wanted.contains(o.getMetadata().getName()))
        .forEach(o -> {
          client.resource(o).delete();
          appliedVersions.remove(key(o));
        });
  }

  private boolean upToDate(T cached, String hash) {
    Map<String, String> annotations = cached.getMetadata().getAnnotations();
    if (annotations == null || !hash.equals(annotations.get(DESIRED_HASH))) {
      return false;
    }
    if (!repairsDrift()) {
      return true;
    }
    String seen = cached.getMetadata().getResourceVersion();
    String applied = appliedVersions.putIfAbsent(key(cached), seen);
    return applied == null || ReadYourWrites.atLeast(applied, seen);
  }

  @Override
  public void delete(Etcd etcd) {
    listExisting(etcd).forEach(o -> {
      client.resource(o).delete();
      appliedVersions.remove(key(o));
    });
  }

  @Override
  public List<T> listExisting(Etcd etcd) {
    if (caches.ready()) {
      return caches.ofEtcd(type, etcd);
    }
    return client.resources(type).inNamespace(etcd.getMetadata().getNamespace())
        .withLabels(EtcdLabels.managed(etcd)).list().getItems();
  }

  private static String key(HasMetadata o) {
    return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
  }

  /** SHA-256 of the object as built (before the hash annotation is added). */
  static String hash(HasMetadata desired) {
    try {
      byte[] json = Serialization.asJson(desired).getBytes(StandardCharsets.UTF_8);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
