package cloud.gardener.druid.operator.it;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A client that keeps writing values of {@code valueBytes} to {@code keys} keys, round robin
 * (each write replaces a key's value: the history grows until compacted), deleting one key
 * every {@code deleteEvery} writes, at about {@code perSecond} requests a second, through the
 * ready members as the client Service would route. Retries what etcd answers UNAVAILABLE as
 * {@link LoadClient} does; counts every failure and every "database space exceeded", and
 * remembers what each key holds after its last acknowledged request.
 */
final class ChurnWriter implements AutoCloseable {

  static final String NO_SPACE = "database space exceeded";

  private final Supplier<List<String>> ready;
  private final Map<String, Client> clients = new ConcurrentHashMap<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong noSpace = new AtomicLong();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  /** Key to the sequence number its value starts with; absent: deleted or never written. */
  private final Map<String, Long> expected = new ConcurrentHashMap<>();
  private final Thread thread;

  ChurnWriter(Supplier<List<String>> ready, String prefix, int keys, int valueBytes,
      int deleteEvery, int perSecond) {
    this(ready, prefix, keys, valueBytes, deleteEvery, perSecond, false);
  }

  /** With {@code uniqueKeys}, every write is a new key: the data in use only grows. */
  ChurnWriter(Supplier<List<String>> ready, String prefix, int keys, int valueBytes,
      int deleteEvery, int perSecond, boolean uniqueKeys) {
    this.ready = ready;
    String padding = "x".repeat(valueBytes);
    long pause = 1000L / perSecond;
    this.thread = new Thread(() -> {
      for (long i = 0; running.get(); i++) {
        String key = prefix + "/" + (uniqueKeys ? i : i % keys);
        write(key, i, padding);
        if (deleteEvery > 0 && i % deleteEvery == deleteEvery - 1) {
          delete(prefix + "/" + ((i * 7) % keys));
        }
        try {
          Thread.sleep(pause);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "churn-" + prefix);
    thread.setDaemon(true);
    thread.start();
  }

  private void write(String key, long i, String padding) {
    try {
      retrying(kv -> kv.put(bytes(key), bytes(i + ":" + padding)).get(10, TimeUnit.SECONDS));
      expected.put(key, i);
    } catch (Exception e) {
      failed(key, e);
    }
  }

  private void delete(String key) {
    try {
      retrying(kv -> kv.delete(bytes(key)).get(10, TimeUnit.SECONDS));
      expected.remove(key);
    } catch (Exception e) {
      failed(key, e);
    }
  }

  private void failed(String key, Exception e) {
    if (String.valueOf(e).contains(NO_SPACE)
        || e.getCause() != null && String.valueOf(e.getCause()).contains(NO_SPACE)) {
      noSpace.incrementAndGet();
    }
    failures.add(key + ": " + e);
  }

  private interface Request {
    Object call(KV kv) throws Exception;
  }

  private void retrying(Request request) throws Exception {
    for (int attempt = 1; ; attempt++) {
      requests.incrementAndGet();
      try {
        request.call(kv());
        return;
      } catch (Exception e) {
        if (attempt == LoadClient.ATTEMPTS || !LoadClient.unavailable(e)) {
          throw e;
        }
        Thread.sleep(200L * attempt / 2);
      }
    }
  }

  private final AtomicLong next = new AtomicLong();

  private KV kv() {
    List<String> endpoints = ready.get();
    if (endpoints.isEmpty()) {
      throw new IllegalStateException("no ready member");
    }
    String e = endpoints.get((int) (next.getAndIncrement() % endpoints.size()));
    return clients.computeIfAbsent(e, k -> EtcdClients.connect(List.of(k.split("#", 2)[0])))
        .getKVClient();
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  long requests() {
    return requests.get();
  }

  long noSpaceErrors() {
    return noSpace.get();
  }

  List<String> failures() {
    return List.copyOf(failures);
  }

  /** What every key holds after its last acknowledged write (sequence number), or absent. */
  Map<String, Long> expected() {
    return Map.copyOf(expected);
  }

  /** Stops writing and waits for the last request. */
  void stop() throws InterruptedException {
    running.set(false);
    thread.join(30_000);
  }

  /** Every remembered key read back through {@code client}: the mismatches. */
  List<String> verify(Client client) throws Exception {
    List<String> wrong = new java.util.ArrayList<>();
    for (Map.Entry<String, Long> e : expected().entrySet()) {
      var kvs = client.getKVClient().get(bytes(e.getKey())).get(10, TimeUnit.SECONDS).getKvs();
      String value = kvs.isEmpty() ? null : kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
      if (value == null || !value.startsWith(e.getValue() + ":")) {
        wrong.add(e.getKey() + ": expected " + e.getValue() + ", read "
            + (value == null ? "nothing" : value.substring(0, value.indexOf(':'))));
      }
    }
    return wrong;
  }

  @Override
  public void close() throws Exception {
    stop();
    clients.values().forEach(Client::close);
  }
}
