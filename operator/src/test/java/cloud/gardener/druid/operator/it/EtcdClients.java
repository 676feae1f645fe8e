package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.operator.model.EtcdLabels;
import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** etcd clients on the member pods' own loopback addresses (never a Service ClusterIP). */
final class EtcdClients {

  private EtcdClients() {
  }

  static List<String> endpoints(KubernetesClient client, Etcd etcd) {
    return client.pods().inNamespace(etcd.getMetadata().getNamespace())
        .withLabels(EtcdLabels.memberSelector(etcd)).list().getItems().stream()
        .filter(p -> p.getStatus() != null && p.getStatus().getPodIP() != null)
        .map(p -> "http://" + p.getStatus().getPodIP() + ":2379").sorted().toList();
  }

  static Client connect(List<String> endpoints) {
    return builder(endpoints).build();
  }

  /** A client of etcd's user {@code user} (etcd's authentication on). */
  static Client connect(List<String> endpoints, String user, String password) {
    return builder(endpoints).user(bytes(user)).password(bytes(password)).build();
  }

  private static io.etcd.jetcd.ClientBuilder builder(List<String> endpoints) {
    return Client.builder().endpoints(endpoints.toArray(String[]::new))
        .connectTimeout(Duration.ofSeconds(3)).keepaliveWithoutCalls(false)
        .retryMaxAttempts(10).retryDelay(200).retryMaxDelay(2000);
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  /**
   * How long a client waits for one answer before it counts the request as failed. On 2
   * shared cores at load 17-33, writes stalled past 10 s while a replaced member's learner
   * received etcd's snapshot (30 s) and the cluster had two voters (docs/testing.md, flake
   * hunt); kube-apiserver waits a minute for a request by default.
   */
  static final long REQUEST_TIMEOUT_SECONDS = 30;

  static void put(KV kv, String key, String value) throws Exception {
    kv.put(bytes(key), bytes(value)).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  static String get(KV kv, String key) throws Exception {
    var kvs = kv.get(bytes(key)).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS).getKvs();
    return kvs.isEmpty() ? null : kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
  }
}
