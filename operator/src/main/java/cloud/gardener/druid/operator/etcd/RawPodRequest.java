package cloud.gardener.druid.operator.etcd;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.URLUtils;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request on a member pod that fabric8 cannot send as such: a delete with a uid
 * precondition (fabric8 offers only a resourceVersion one) or a JSON patch without reading the
 * pod first (a get the chart does not grant). Answers the response.
 */
final class RawPodRequest {

  private static final long TIMEOUT_SECONDS = 30;

  private RawPodRequest() {
  }

  static HttpResponse<String> send(KubernetesClient client, String method, String ns, String name,
      String contentType, Object body) {
    HttpClient http = client.getHttpClient();
    HttpRequest request = http.newHttpRequestBuilder()
        .uri(URLUtils.join(client.getMasterUrl().toString(), "api", "v1", "namespaces", ns,
            "pods", name))
        .method(method, contentType, client.getKubernetesSerialization().asJson(body))
        .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("interrupted: " + method + " pod " + name, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KubernetesClientException(method + " pod " + name + " failed: " + e, e);
    }
    return response;
  }
}
