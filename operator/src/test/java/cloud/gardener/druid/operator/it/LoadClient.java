package cloud.gardener.druid.operator.it;

import io.etcd.jetcd.Client;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client that writes and reads back keys continuously through every member's endpoint until
 * stopped (or for at most {@code maxRun}); counts requests and records every failure.
 *
 * <p>Like etcd's own clients and kube-apiserver, it retries a request that etcd answers with
 * UNAVAILABLE (e.g. "request timed out, possibly due to previous leader failure" while
 * leadership moves), at most {@link #ATTEMPTS} times within about a second; a request that
 * still fails counts as failed. Retries are counted separately.
 */
final class LoadClient implements AutoCloseable {

  static final int ATTEMPTS = 5;

  private final Client client;
  private final java.util.function.Supplier<List<String>> service;
  private final java.util.Map<String, Client> perEndpoint = new java.util.concurrent.ConcurrentHashMap<>();
  private final AtomicLong turn = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final AtomicLong slowestMillis = new AtomicLong();
  private final Thread thread;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

  LoadClient(List<String> endpoints, String prefix, java.time.Duration maxRun) {
    this(endpoints, null, prefix, maxRun);
  }

  /**
   * A client behind the client Service: each request goes to the next of the endpoints
   * {@code readyEndpoints} names at that moment (the ready members), as a Service routes.
   * An entry may carry {@code #<pod uid>} after the URL to tell pod incarnations apart.
   */
  LoadClient(java.util.function.Supplier<List<String>> readyEndpoints, String prefix,
      java.time.Duration maxRun) {
    this(readyEndpoints.get(), readyEndpoints, prefix, maxRun);
  }

  private LoadClient(List<String> endpoints, java.util.function.Supplier<List<String>> service,
      String prefix, java.time.Duration maxRun) {
    this.client = EtcdClients.connect(endpoints);
    this.service = service;
    long deadline = System.nanoTime() + maxRun.toNanos();
    this.thread = new Thread(() -> {
      long i = 0;
      while (running.get() && System.nanoTime() < deadline) {
        String key = prefix + "/" + i;
        long started = System.nanoTime();
        try {
          requests.incrementAndGet();
          String value = "v" + i;
          retrying(() -> {
            EtcdClients.put(kv(), key, value);
            return null;
          });
          written.set(i + 1);
          requests.incrementAndGet();
          String back = retrying(() -> EtcdClients.get(kv(), key));
          if (!("v" + i).equals(back)) {
            failures.add(key + ": read back " + back);
          }
        } catch (Exception e) {
          failures.add(key + ": " + e + " (via " + lastEndpoint + ", at "
              + java.time.Instant.now() + ")");
        }
        slowestMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
        i++;
      }
    }, "load-" + prefix);
    thread.setDaemon(true);
    thread.start();
  }

  /** The endpoint the last request went to, for the failure message. */
  private volatile String lastEndpoint = "the shared client";

  /** The KV client for the next request: the shared one, or the next ready endpoint's. */
  private io.etcd.jetcd.KV kv() {
    List<String> ready = service == null ? List.of() : service.get();
    if (ready.isEmpty()) {
      lastEndpoint = "the shared client";
      return client.getKVClient();
    }
    // "endpoint#incarnation": a recreated member gets a fresh connection, not one that is
    // still backing off from its predecessor's shutdown
    String key = ready.get((int) (turn.getAndIncrement() % ready.size()));
    lastEndpoint = key;
    return perEndpoint.computeIfAbsent(key,
        k -> EtcdClients.connect(List.of(k.split("#", 2)[0]))).getKVClient();
  }

  private <T> T retrying(java.util.concurrent.Callable<T> request) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return request.call();
      } catch (Exception e) {
        if (attempt == ATTEMPTS || !unavailable(e)) {
          throw e;
        }
        retries.incrementAndGet();
        Thread.sleep(200L * attempt / 2);
      }
    }
  }

  /**
   * Answers that say the request was not applied and another member will take it: UNAVAILABLE
   * (leader change, a member stopping), a learner's refusal, and "raft proposal dropped"
   * (etcd, as UNKNOWN, for a write arriving while leadership is being transferred: raft
   * refused to append it). This client dials members
   * directly; behind the client Service, which routes only to ready members, a learner (not
   * ready until promoted) would never receive the request.
   */
  static boolean unavailable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof io.grpc.StatusRuntimeException s
          && (s.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE
              || s.getStatus().getCode() == io.grpc.Status.Code.FAILED_PRECONDITION
                  && String.valueOf(s.getStatus().getDescription())
                      .contains("not supported for learner")
              || String.valueOf(s.getStatus().getDescription())
                  .contains("raft proposal dropped"))) {
        return true;
      }
    }
    return false;
  }

  /** The slowest write and read back, in milliseconds. */
  long slowestMillis() {
    return slowestMillis.get();
  }

  long retries() {
    return retries.get();
  }

  long requests() {
    return requests.get();
  }

  /** Number of keys written, all of which must be readable afterwards. */
  long written() {
    return written.get();
  }

  List<String> failures() {
    return List.copyOf(failures);
  }

  Client client() {
    return client;
  }

  void stop() throws InterruptedException {
    running.set(false);
    thread.join(30_000);
  }

  @Override
  public void close() throws Exception {
    stop();
    client.close();
    perEndpoint.values().forEach(Client::close);
  }
}
