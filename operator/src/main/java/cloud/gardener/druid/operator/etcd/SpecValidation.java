package cloud.gardener.druid.operator.etcd;

import cloud.gardener.druid.api.types.CronSchedule;
import cloud.gardener.druid.api.types.GoDuration;
import cloud.gardener.druid.api.types.Quantities;
import cloud.gardener.druid.api.v1alpha1.BackupSpec;
import cloud.gardener.druid.api.v1alpha1.CompressionSpec;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.EtcdConfig;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.operator.model.EtcdAuthSecret;
import cloud.gardener.druid.operator.model.StoreProviders;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a spec before anything is changed for it: values the schema cannot fully check
 * (cron ranges, objects that predate the schema) and referenced Secrets that must exist. A
 * problem stops the spec reconcile, so the cluster keeps running its previous spec. The
 * referenced Secrets are read once per generation that passes (a spec is checked before it is
 * first acted on; reconciles of the same generation that follow events cost no reads).
 */
public final class SpecValidation {

  /** A problem with a stable error code. */
  public record Problem(String code, String description) {
  }

  static final String AUTH_FIELD = "spec.etcd.authSecretRef";

  private final KubernetesClient client;
  private final Map<String, Long> passedGeneration = new ConcurrentHashMap<>();

  public SpecValidation(KubernetesClient client) {
    this.client = client;
  }

  public List<Problem> validate(Etcd etcd) {
    List<Problem> problems = new ArrayList<>(syntax(etcd));
    String uid = etcd.getMetadata().getUid();
    Long generation = etcd.getMetadata().getGeneration();
    if (problems.isEmpty() && generation != null
        && generation.equals(passedGeneration.get(uid))) {
      return problems;
    }
    secrets(etcd).forEach((field, name) -> {
      Secret s = client.secrets().inNamespace(etcd.getMetadata().getNamespace()).withName(name).get();
      if (s == null) {
        problems.add(new Problem("ERR_SECRET_NOT_FOUND",
            field + " references secret " + name + ", which does not exist"));
      } else if (field.equals(AUTH_FIELD)) {
        missingAuthKeys(s).ifPresent(problems::add);
      }
    });
    if (problems.isEmpty() && uid != null && generation != null) {
      passedGeneration.put(uid, generation);
    } else if (uid != null) {
      passedGeneration.remove(uid);
    }
    return problems;
  }

  /** The etcd user's Secret holds a non-empty username and password (values never shown). */
  static Optional<Problem> missingAuthKeys(Secret s) {
    List<String> missing = new ArrayList<>();
    for (String key : List.of(EtcdAuthSecret.USERNAME, EtcdAuthSecret.PASSWORD)) {
      boolean inData = s.getData() != null && s.getData().get(key) != null
          && !s.getData().get(key).isEmpty();
      boolean inStringData = s.getStringData() != null && s.getStringData().get(key) != null
          && !s.getStringData().get(key).isEmpty();
      if (!inData && !inStringData) {
        missing.add(key);
      }
    }
    return missing.isEmpty() ? Optional.empty() : Optional.of(new Problem("ERR_INVALID_SPEC",
        AUTH_FIELD + ": secret " + s.getMetadata().getName() + " has no non-empty key "
            + String.join(", ", missing) + " (the etcd user the agent authenticates as)"));
  }

  /** Forgets a deleted Etcd. */
  public void forget(Etcd etcd) {
    passedGeneration.remove(etcd.getMetadata().getUid());
  }

  /** Problems visible in the spec alone. */
  public static List<Problem> syntax(Etcd etcd) {
    List<Problem> p = new ArrayList<>();
    EtcdConfig ec = etcd.getSpec().getEtcd();
    BackupSpec b = etcd.getSpec().getBackup();
    if (ec != null) {
      cron(p, "spec.etcd.defragmentationSchedule", ec.getDefragmentationSchedule());
      duration(p, "spec.etcd.heartbeatDuration", ec.getHeartbeatDuration());
      duration(p, "spec.etcd.etcdDefragTimeout", ec.getEtcdDefragTimeout());
      Quantities.validate(ec.getQuota()).ifPresent(m -> p.add(invalid("spec.etcd.quota", m)));
      authSecret(p, etcd);
      if (ec.getCapacity() != null) {
        Quantities.validate(ec.getCapacity().getMaxQuota())
            .ifPresent(m -> p.add(invalid("spec.etcd.capacity.maxQuota", m)));
        duration(p, "spec.etcd.capacity.defragmentWithin",
            ec.getCapacity().getDefragmentWithin());
      }
    }
    if (b != null) {
      if (b.getStore() != null
          && StoreProviders.of(b.getStore()) instanceof StoreProviders.Refused refused) {
        p.add(invalid("spec.backup.store.provider", refused.reason()));
      }
      cron(p, "spec.backup.fullSnapshotSchedule", b.getFullSnapshotSchedule());
      duration(p, "spec.backup.deltaSnapshotPeriod", b.getDeltaSnapshotPeriod());
      duration(p, "spec.backup.garbageCollectionPeriod", b.getGarbageCollectionPeriod());
      Quantities.validate(b.getDeltaSnapshotMemoryLimit())
          .ifPresent(m -> p.add(invalid("spec.backup.deltaSnapshotMemoryLimit", m)));
      duration(p, "spec.backup.deltaSnapshotRetentionPeriod", b.getDeltaSnapshotRetentionPeriod());
      if (b.getCompression() != null && Boolean.TRUE.equals(b.getCompression().getEnabled())
          && b.getCompression().getPolicy() == CompressionSpec.Policy.LZW) {
        p.add(invalid("spec.backup.compression.policy", "lzw snapshots are restored but not"
            + " written by this agent; use gzip or zlib"));
      }
    }
    Quantities.validate(etcd.getSpec().getStorageCapacity())
        .ifPresent(m -> p.add(invalid("spec.storageCapacity", m)));
    return p;
  }

  /** Every Secret the spec references, by the field that references it. */
  static Map<String, String> secrets(Etcd etcd) {
    Map<String, String> refs = new LinkedHashMap<>();
    EtcdConfig ec = etcd.getSpec().getEtcd();
    if (ec != null) {
      tls(refs, "spec.etcd.clientUrlTls", ec.getClientUrlTls());
      tls(refs, "spec.etcd.peerUrlTls", ec.getPeerUrlTls());
      Optional.ofNullable(ec.getAuthSecretRef()).map(r -> r.getName())
          .filter(n -> !n.isBlank()).ifPresent(n -> refs.put(AUTH_FIELD, n));
    }
    BackupSpec b = etcd.getSpec().getBackup();
    if (b != null) {
      tls(refs, "spec.backup.tls", b.getTls());
      Optional.ofNullable(b.getStore()).map(s -> s.getSecretRef())
          .ifPresent(r -> refs.put("spec.backup.store.secretRef", r.getName()));
    }
    return refs;
  }

  private static void tls(Map<String, String> refs, String field, TLSConfig tls) {
    if (tls == null) {
      return;
    }
    refs.put(field + ".tlsCASecretRef", tls.getTlsCASecretRef().getName());
    refs.put(field + ".serverTLSSecretRef", tls.getServerTLSSecretRef().getName());
    if (tls.getClientTLSSecretRef() != null) {
      refs.put(field + ".clientTLSSecretRef", tls.getClientTLSSecretRef().getName());
    }
  }

  /** A pod mounts Secrets of its own namespace only. */
  private static void authSecret(List<Problem> p, Etcd etcd) {
    var ref = etcd.getSpec().getEtcd().getAuthSecretRef();
    if (ref == null) {
      return;
    }
    if (ref.getName() == null || ref.getName().isBlank()) {
      p.add(invalid(AUTH_FIELD + ".name", "the name of the Secret with the keys username and"
          + " password is required"));
    }
    String ns = etcd.getMetadata().getNamespace();
    if (ref.getNamespace() != null && !ref.getNamespace().isEmpty()
        && !ref.getNamespace().equals(ns)) {
      p.add(invalid(AUTH_FIELD + ".namespace", "the Secret must be in the Etcd's namespace "
          + ns + ", not " + ref.getNamespace()));
    }
  }

  private static void cron(List<Problem> p, String field, CronSchedule c) {
    if (c != null) {
      CronSchedule.validate(c.text()).ifPresent(m -> p.add(invalid(field, m)));
    }
  }

  private static void duration(List<Problem> p, String field, GoDuration d) {
    if (d != null) {
      GoDuration.validate(d.text()).ifPresent(m -> p.add(invalid(field, m)));
    }
  }

  private static Problem invalid(String field, String message) {
    return new Problem("ERR_INVALID_SPEC", field + ": " + message);
  }
}
