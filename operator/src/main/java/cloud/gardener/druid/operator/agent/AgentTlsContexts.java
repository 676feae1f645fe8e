package cloud.gardener.druid.operator.agent;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.api.v1alpha1.TLSConfig;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import cloud.gardener.druid.operator.model.EtcdNames;
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
 * The TLS context the operator uses for one Etcd's agents. It always presents the client
 * certificate of the Etcd's own agent API Secret ({@link AgentCertificates}, issued by the
 * operator), the only caller the agents accept. It trusts the agents' server certificates
 * issued by the CA of {@code spec.backup.tls} when the Etcd has one, else by the CA bundle of
 * that Secret (both CAs during a rotation). Each Etcd has its own CA. Contexts are cached per
 * secret version (uid and resourceVersion), so a rotated secret is picked up; which secrets
 * an Etcd refers to is re-read at most every {@link #REFRESH}. The Etcd and its issued Secret
 * are read from the operator's caches once they run; a user's CA Secret (not the operator's,
 * so not in its caches) is read from the API server and kept by {@link UserCaSecrets} until
 * the Etcd's spec changes, a handshake fails ({@link #forget}) or a long TTL passes.
 */
public final class AgentTlsContexts {

  static final Duration REFRESH = Duration.ofSeconds(5);

  private record Resolved(Optional<SSLContext> context, Instant at) {
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final OwnedCaches caches;
  private final Map<String, Resolved> byEtcd = new ConcurrentHashMap<>();
  private final Map<String, SSLContext> bySecretVersions = new ConcurrentHashMap<>();
  private final UserCaSecrets userCas;

  public AgentTlsContexts(KubernetesClient client, Clock clock) {
    this(client, clock, new OwnedCaches());
  }

  public AgentTlsContexts(KubernetesClient client, Clock clock, OwnedCaches caches) {
    this.client = client;
    this.clock = clock;
    this.caches = caches;
    this.userCas = new UserCaSecrets(this::secret, clock, Math::random);
  }

  /** The context for the endpoint's Etcd; empty when the Etcd is gone. */
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

  /**
   * A TLS handshake with one of the Etcd's agents failed: its CA may have been rotated, so
   * the next call reads the Etcd's secrets again.
   */
  public void forget(AgentEndpoint endpoint) {
    byEtcd.remove(endpoint.namespace() + "/" + endpoint.etcd());
    userCas.forget(endpoint.namespace(), endpoint.etcd());
  }

  private Optional<SSLContext> resolve(String namespace, String name) {
    Etcd etcd = caches.ready() ? caches.etcd(namespace, name).orElse(null)
        : client.resources(Etcd.class).inNamespace(namespace).withName(name).get();
    if (etcd == null) {
      return Optional.empty();
    }
    TLSConfig tls = etcd.getSpec().getBackup() == null ? null
        : etcd.getSpec().getBackup().getTls();
    String issuedName = EtcdNames.of(etcd).agentApiSecret();
    Secret issued = caches.ready() ? caches.get(Secret.class, namespace, issuedName)
        .orElseGet(() -> secret(namespace, issuedName)) : secret(namespace, issuedName);
    Optional<Secret> userCa = Optional.ofNullable(tls)
        .map(t -> userCas.of(etcd, t.getTlsCASecretRef().getName()));
    String caKey = Optional.ofNullable(tls).map(t -> t.getTlsCASecretRef().getDataKey())
        .filter(k -> !k.isEmpty()).orElse("ca.crt");
    String peerDomain = name + "-peer." + namespace + ".svc";
    String versions = version(issued) + "|" + userCa.map(AgentTlsContexts::version).orElse("")
        + "|" + caKey + "|" + peerDomain;
    return Optional.of(bySecretVersions.computeIfAbsent(versions, v -> TlsMaterial.context(
        userCa.map(s -> TlsMaterial.data(s, caKey))
            .orElseGet(() -> TlsMaterial.data(issued, AgentCertificates.CA_BUNDLE)),
        TlsMaterial.data(issued, AgentCertificates.CLIENT_CERT),
        TlsMaterial.data(issued, AgentCertificates.CLIENT_KEY),
        peerDomain)));
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
