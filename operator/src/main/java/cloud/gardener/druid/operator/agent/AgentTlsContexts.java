package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;

/**
 * The TLS context the operator uses for one Etcd's agents, built from the Etcd's
 * {@code spec.backup.tls}: the CA secret decides which server certificates are trusted, the
 * client secret (when referenced) is the certificate the operator presents (the agents ask
 * for one on every path but their probes). Each Etcd may have its own CA. Contexts are cached
 * per secret version (uid and resourceVersion), so a rotated secret is picked up; which
 * secrets an Etcd refers to is re-read at most every {@link #REFRESH}.
 */
public final class AgentTlsContexts {

  static final Duration REFRESH = Duration.ofSeconds(5);

  private record Resolved(Optional<SSLContext> context, Instant at) {
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final Map<String, Resolved> byEtcd = new ConcurrentHashMap<>();
  private final Map<String, SSLContext> bySecretVersions = new ConcurrentHashMap<>();

  public AgentTlsContexts(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /** The context for the endpoint's Etcd; empty when the Etcd has no agent TLS. */
  public Optional<SSLContext> contextFor(AgentEndpoint endpoint) {
    String key = endpoint.namespace() + "/" + endpoint.etcd();
    Resolved cached = byEtcd.get(key);
    if (cached != null && cached.at().plus(REFRESH).isAfter(clock.instant())) {
      return cached.context();
    }
    Optional<SSLContext> context;
    try {
      context = resolve(endpoint.namespace(), endpoint.etcd());
    } catch (KubernetesClientException e) {
      throw new AgentClient.AgentException("cannot read the agent TLS of " + key + ": "
          + e.getMessage(), e);
    }
    byEtcd.put(key, new Resolved(context, clock.instant()));
    return context;
  }

  private Optional<SSLContext> resolve(String namespace, String name) {
    Etcd etcd = client.resources(Etcd.class).inNamespace(namespace).withName(name).get();
    TLSConfig tls = etcd == null || etcd.getSpec().getBackup() == null ? null
        : etcd.getSpec().getBackup().getTls();
    if (tls == null) {
      return Optional.empty();
    }
    Secret ca = secret(namespace, tls.getTlsCASecretRef().getName());
    Optional<Secret> identity = Optional.ofNullable(tls.getClientTLSSecretRef())
        .map(ref -> secret(namespace, ref.getName()));
    String caKey = Optional.ofNullable(tls.getTlsCASecretRef().getDataKey())
        .filter(k -> !k.isEmpty()).orElse("ca.crt");
    String versions = version(ca) + "|" + caKey + "|" + identity.map(AgentTlsContexts::version)
        .orElse("") + "|" + name + "-peer." + namespace + ".svc";
    return Optional.of(bySecretVersions.computeIfAbsent(versions, v -> TlsMaterial.context(
        TlsMaterial.data(ca, caKey),
        identity.map(s -> TlsMaterial.data(s, "tls.crt")),
        identity.map(s -> TlsMaterial.data(s, "tls.key")),
        name + "-peer." + namespace + ".svc")));
  }

  private Secret secret(String namespace, String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null) {
      throw new AgentClient.AgentException("secret " + namespace + "/" + name
          + " of the agent TLS is missing");
    }
    return secret;
  }

  private static String version(Secret s) {
    return s.getMetadata().getUid() + "@" + s.getMetadata().getResourceVersion();
  }
}
