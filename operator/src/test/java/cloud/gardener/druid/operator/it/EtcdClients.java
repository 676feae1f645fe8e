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
    return Client.builder().endpoints(endpoints.toArray(String[]::new))
        .connectTimeout(Duration.ofSeconds(3)).keepaliveWithoutCalls(false)
        .retryMaxAttempts(10).retryDelay(200).retryMaxDelay(2000).build();
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  static void put(KV kv, String key, String value) throws Exception {
    kv.put(bytes(key), bytes(value)).get(10, TimeUnit.SECONDS);
  }

  static String get(KV kv, String key) throws Exception {
    var kvs = kv.get(bytes(key)).get(10, TimeUnit.SECONDS).getKvs();
    return kvs.isEmpty() ? null : kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
  }
}
