package cloud.gardener.druid.operator.component;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import cloud.gardener.druid.operator.agent.AgentCertificates;
import cloud.gardener.druid.operator.cache.OwnedCaches;
import cloud.gardener.druid.operator.model.EtcdNames;
import cloud.gardener.druid.operator.model.OwnedSecrets;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Secret of the agent API's certificates the operator issues for each Etcd
 * ({@link AgentCertificates}): created before the members, owned by the Etcd, renewed on
 * every reconcile that finds a certificate due (the reconcile interval is far shorter than
 * the renewal margins). Read by name from the cache of the operator's own Secrets (those with
 * its managed-by label) and written by name: the operator never lists other Secrets.
 */
public final class AgentApiSecretComponent implements Component {

  private final KubernetesClient client;
  private final Clock clock;
  private final OwnedCaches caches;

  public AgentApiSecretComponent(KubernetesClient client, Clock clock, OwnedCaches caches) {
    this.client = client;
    this.clock = clock;
    this.caches = caches;
  }

  @Override
  public boolean runtime() {
    return false;
  }

  @Override
  public String name() {
    return "AGENT_API_SECRET";
  }

  @Override
  public void sync(Etcd etcd) {
    EtcdNames names = EtcdNames.of(etcd);
    Secret existing = get(etcd);
    Map<String, String> current = existing == null ? Map.of() : decode(existing);
    Map<String, String> next = AgentCertificates.next(current,
        AgentCertificates.serverNames(names.etcd(), names.namespace()), clock.instant());
    if (existing != null && next == current) {
      return;
    }
    Secret desired = OwnedSecrets.desired(etcd, names.agentApiSecret(), existing,
        encode(next));
    Secret written = existing == null ? client.resource(desired).create()
        : client.resource(desired).update(); // optimistic: a concurrent writer makes this retry
    caches.wrote(written, existing);
  }

  @Override
  public void delete(Etcd etcd) {
    client.secrets().inNamespace(etcd.getMetadata().getNamespace())
        .withName(EtcdNames.of(etcd).agentApiSecret()).delete();
  }

  @Override
  public List<Secret> listExisting(Etcd etcd) {
    Secret secret = get(etcd);
    return secret == null ? List.of() : List.of(secret);
  }

  private Secret get(Etcd etcd) {
    if (caches.ready()) {
      return caches.get(Secret.class, etcd.getMetadata().getNamespace(),
          EtcdNames.of(etcd).agentApiSecret()).orElse(null);
    }
    return client.secrets().inNamespace(etcd.getMetadata().getNamespace())
        .withName(EtcdNames.of(etcd).agentApiSecret()).get();
  }

  private static Map<String, String> decode(Secret secret) {
    Map<String, String> data = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k,
          new String(Base64.getDecoder().decode(v), StandardCharsets.US_ASCII)));
    }
    return data;
  }

  private static Map<String, String> encode(Map<String, String> data) {
    Map<String, String> encoded = new LinkedHashMap<>();
    data.forEach((k, v) -> encoded.put(k,
        Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.US_ASCII))));
    return encoded;
  }
}
