package cloud.gardener.druid.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClientRequestsTest {

  @ParameterizedTest
  @CsvSource({
      "GET, /apis/coordination.k8s.io/v1/namespaces/ns/leases/etcd-druid-leader-election,"
          + " get, leases, ''",
      "PATCH, /apis/coordination.k8s.io/v1/namespaces/ns/leases/etcd-druid-leader-election,"
          + " patch, leases, ''",
      "GET, /api/v1/namespaces/ns/pods?labelSelector=a%3Db, list, pods, ''",
      "GET, /api/v1/namespaces/ns/pods?labelSelector=a&watch=true&resourceVersion=5,"
          + " watch, pods, ''",
      "GET, /apis/druid.gardener.cloud/v1alpha1/etcds?watch=1, watch, etcds, ''",
      "PATCH, /apis/druid.gardener.cloud/v1alpha1/namespaces/ns/etcds/e/status,"
          + " patch, etcds, status",
      "PUT, /api/v1/namespaces/ns, update, namespaces, ''",
      "GET, /api/v1/namespaces, list, namespaces, ''",
      "POST, /api/v1/namespaces/ns/events, create, events, ''",
      "POST, /api/v1/namespaces/ns/pods/p/eviction, create, pods, eviction",
      "DELETE, /api/v1/namespaces/ns/pods/p, delete, pods, ''",
      "DELETE, /api/v1/namespaces/ns/pods, deletecollection, pods, ''",
      "GET, /apis/storage.k8s.io/v1/storageclasses/fast, get, storageclasses, ''",
      "GET, /apis/druid.gardener.cloud/v1alpha1, get, '', ''",
      "GET, /version, get, '', ''"})
  void namesARequestAsTheApiServerDoes(String method, String uri, String verb, String resource,
      String subresource) {
    assertThat(ClientRequests.Request.of(method, URI.create("https://127.0.0.1:6443" + uri),
        "application/merge-patch+json"))
        .isEqualTo(new ClientRequests.Request(verb, resource, subresource));
  }

  @Test
  void aServerSideApplyIsAnApplyAsTheApiServerCountsIt() {
    assertThat(ClientRequests.Request.of("PATCH",
        URI.create("https://127.0.0.1:6443/api/v1/namespaces/ns/services/s?fieldManager=d"),
        "application/apply-patch+yaml"))
        .isEqualTo(new ClientRequests.Request("apply", "services", ""));
  }

  @Test
  void theOperatorsMetricsCountTheRequestsOfTheClientItIsAddedTo() {
    try (OperatorMetrics metrics = new OperatorMetrics()) {
      HttpRequest get = request("GET",
          "/apis/coordination.k8s.io/v1/namespaces/ns/leases/l");
      metrics.clientRequests().before(null, get, null);
      metrics.clientRequests().before(null, get, null);
      metrics.clientRequests().before(null, request("GET", "/api/v1/pods?watch=true"), null);
      metrics.clientRequests().before(null, new StandardHttpRequest.Builder()
          .uri("https://127.0.0.1:6443/api/v1/namespaces/ns/services/s?fieldManager=d")
          .method("PATCH", "application/apply-patch+yaml", "{}").build(), null);
      assertThat(metrics.scrape())
          .contains(ClientRequests.COUNTER
              + "{resource=\"leases\",subresource=\"\",verb=\"get\"} 2.0")
          .contains(ClientRequests.COUNTER
              + "{resource=\"pods\",subresource=\"\",verb=\"watch\"} 1.0")
          .contains(ClientRequests.COUNTER
              + "{resource=\"services\",subresource=\"\",verb=\"apply\"} 1.0");
    }
  }

  private static HttpRequest request(String method, String path) {
    return new StandardHttpRequest.Builder().uri("https://127.0.0.1:6443" + path)
        .method(method, "application/json", null).build();
  }
}
