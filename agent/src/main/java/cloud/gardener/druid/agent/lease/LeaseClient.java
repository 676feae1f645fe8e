package cloud.gardener.druid.agent.lease;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Reads and updates one {@code coordination.k8s.io/v1} Lease over fabric8's authenticated HTTP
 * client (its {@link Config}: in-cluster token with refresh, CA, KUBECONFIG) without a whole
 * {@code KubernetesClient}: that one registers handlers for every API group and loads about a
 * thousand classes a member never uses. Update is optimistic (get, then put with the
 * resourceVersion read), as upstream's renewal; a conflict is retried once with a fresh read.
 */
public final class LeaseClient implements AutoCloseable {

  /** What one renewal did. */
  public sealed interface Outcome {
    record Renewed() implements Outcome {
    }

    /** The lease already said as much: not written. */
    record Unchanged() implements Outcome {
    }

    record Missing() implements Outcome {
    }

    /** Someone else updated the lease between our read and write, twice in a row. */
    record Conflict() implements Outcome {
    }

    /** The API server answered with an error; {@code reason} is its status message. */
    record Rejected(int code, String reason) implements Outcome {
    }
  }

  private static final String JSON = "application/json";
  private static final long RESPONSE_TIMEOUT_MS = 30_000;

  private final HttpClient http;
  private final String apiRoot;
  private final KubernetesSerialization json = new KubernetesSerialization();

  /** Over {@code http}, an authenticated client for the API server at {@code masterUrl}. */
  LeaseClient(HttpClient http, String masterUrl) {
    this.http = http;
    this.apiRoot = (masterUrl.endsWith("/") ? masterUrl.substring(0, masterUrl.length() - 1)
        : masterUrl) + "/apis/coordination.k8s.io/v1/namespaces/";
  }

  LeaseClient(Config config) {
    this(HttpClientUtils.createHttpClient(config), config.getMasterUrl());
  }

  /** Client from the environment: in-cluster service account, or KUBECONFIG. */
  public static LeaseClient fromEnvironment() {
    Config config = Config.autoConfigure(null);
    // two small requests every 10 s: HTTP/1.1 keep-alive does it without HTTP/2's frame and
    // HPACK machinery (fewer classes loaded and kept)
    config.setHttp2Disable(true);
    return new LeaseClient(config);
  }

  /**
   * Sets holder and renew time of an existing lease; a conflict is retried once.
   *
   * @throws LeaseException if the API server cannot be reached or does not answer in time
   */
  public Outcome renew(String namespace, String name, String holder, ZonedDateTime now) {
    return renewIf(namespace, name, lease -> true, holder, now, 2);
  }

  /**
   * Sets holder and renew time of an existing lease when {@code stale} says the lease read
   * needs it ({@link Outcome.Unchanged} otherwise), reading again after a conflict, at most
   * {@code attempts} reads.
   *
   * @throws LeaseException if the API server cannot be reached or does not answer in time
   */
  public Outcome renewIf(String namespace, String name, Predicate<Lease> stale, String holder,
      ZonedDateTime now, int attempts) {
    return updateIf(namespace, name, stale, lease -> {
      lease.getSpec().setHolderIdentity(holder);
      lease.getSpec().setRenewTime(now);
    }, attempts);
  }

  /**
   * Applies {@code change} to an existing lease (its spec never null) when {@code stale} says
   * the lease read needs it, reading again after a conflict, at most {@code attempts} reads.
   *
   * @throws LeaseException if the API server cannot be reached or does not answer in time
   */
  public Outcome updateIf(String namespace, String name, Predicate<Lease> stale,
      java.util.function.Consumer<Lease> change, int attempts) {
    String url = apiRoot + namespace + "/leases/" + name;
    for (int attempt = 0; attempt < attempts; attempt++) {
      HttpResponse<byte[]> read = send(http.newHttpRequestBuilder().uri(url)
          .header("Accept", JSON).build());
      if (read.code() == 404) {
        return new Outcome.Missing();
      }
      if (!read.isSuccessful()) {
        return rejected(read);
      }
      Lease lease = json.unmarshal(new String(read.body(), StandardCharsets.UTF_8), Lease.class);
      if (!stale.test(lease)) {
        return new Outcome.Unchanged();
      }
      if (lease.getSpec() == null) {
        lease.setSpec(new LeaseSpec());
      }
      change.accept(lease);
      HttpResponse<byte[]> written = send(http.newHttpRequestBuilder().uri(url)
          .header("Accept", JSON).put(JSON, json.asJson(lease)).build());
      if (written.isSuccessful()) {
        return new Outcome.Renewed();
      }
      if (written.code() == 404) {
        return new Outcome.Missing();
      }
      if (written.code() != 409) {
        return rejected(written);
      }
    }
    return new Outcome.Conflict();
  }

  private HttpResponse<byte[]> send(HttpRequest request) {
    CompletableFuture<HttpResponse<byte[]>> answer = http.sendAsync(request, byte[].class);
    try {
      return answer.get(RESPONSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LeaseException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new LeaseException(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new LeaseException("no answer within " + RESPONSE_TIMEOUT_MS + " ms", e);
    }
  }

  /** The Status message of an error answer (never a header: those may carry the token). */
  private Outcome rejected(HttpResponse<byte[]> response) {
    String reason = "";
    try {
      Status status = json.unmarshal(
          new String(response.body(), StandardCharsets.UTF_8),
          Status.class);
      reason = status.getMessage() == null ? "" : status.getMessage();
    } catch (RuntimeException notAStatus) {
      // a proxy's HTML page or an empty body: the code alone says enough
    }
    return new Outcome.Rejected(response.code(), reason);
  }

  @Override
  public void close() {
    http.close();
  }

  /** The API server could not be asked. */
  public static final class LeaseException extends RuntimeException {
    LeaseException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
