package cloud.gardener.druid.operator.metrics;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Counts every request the operator's Kubernetes client sends, by Kubernetes verb and
 * resource as kube-apiserver's {@code apiserver_request_total} names them ({@code get},
 * {@code list}, {@code watch}, {@code create}, {@code update}, {@code patch}, {@code apply}
 * (a server-side apply), {@code delete},
 * {@code deletecollection}; {@code resource} and {@code subresource} from the path; non-resource
 * requests such as discovery with an empty resource). A watch counts once when it is opened
 * (or re-opened), not per event. Exposed as {@value #COUNTER}: the operator's own API cost,
 * apart from what other clients of the same API server ask.
 */
public final class ClientRequests implements Interceptor {

  public static final String COUNTER = "etcddruid_client_requests_total";
  private static final String NAME = "etcddruid.client.requests";

  private final MeterRegistry registry;

  ClientRequests(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Adds this counter to a client's HTTP client ({@code withHttpClientBuilderConsumer}). */
  public void addTo(HttpClient.Builder builder) {
    builder.addOrReplaceInterceptor("etcddruid-client-requests", this);
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String contentType = request instanceof StandardHttpRequest standard
        ? standard.getContentType() : request.header("Content-Type");
    Request r = Request.of(request.method(), request.uri(), contentType);
    Counter.builder(NAME)
        .description("Requests of the operator's Kubernetes client (a watch counts when opened)")
        .tags("verb", r.verb(), "resource", r.resource(), "subresource", r.subresource())
        .register(registry).increment();
  }

  /** A request in the API server's terms. */
  record Request(String verb, String resource, String subresource) {

    static Request of(String method, URI uri, String contentType) {
      List<String> segments = segments(uri.getRawPath());
      int prefix = !segments.isEmpty() && segments.get(0).equals("api") ? 2
          : !segments.isEmpty() && segments.get(0).equals("apis") ? 3 : segments.size();
      List<String> rest = segments.size() > prefix ? segments.subList(prefix, segments.size())
          : List.of();
      if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
        rest = rest.subList(2, rest.size());
      }
      String m = method.toUpperCase(Locale.ROOT);
      if (rest.isEmpty()) {
        return new Request(m.toLowerCase(Locale.ROOT), "", "");
      }
      boolean named = rest.size() >= 2;
      String verb = switch (m) {
        case "GET" -> named ? "get" : watch(uri.getRawQuery()) ? "watch" : "list";
        case "POST" -> "create";
        case "PUT" -> "update";
        case "PATCH" -> contentType != null && contentType.contains("apply-patch") ? "apply"
            : "patch";
        case "DELETE" -> named ? "delete" : "deletecollection";
        default -> m.toLowerCase(Locale.ROOT);
      };
      return new Request(verb, rest.get(0), rest.size() >= 3 ? rest.get(2) : "");
    }

    private static boolean watch(String query) {
      if (query == null) {
        return false;
      }
      for (String parameter : query.split("&")) {
        if (parameter.equals("watch=true") || parameter.equals("watch=1")) {
          return true;
        }
      }
      return false;
    }

    private static List<String> segments(String path) {
      return path == null ? List.of()
          : Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }
  }
}
