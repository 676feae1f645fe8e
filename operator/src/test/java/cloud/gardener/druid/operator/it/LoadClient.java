package cloud.gardener.druid.operator.it;

import io.etcd.jetcd.Client;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client that writes and reads back keys continuously through every member's endpoint until
 * stopped (or for at most {@code maxRun}); counts requests and records every failure.
 */
final class LoadClient implements AutoCloseable {

  private final Client client;
  private final Thread thread;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

  LoadClient(List<String> endpoints, String prefix, java.time.Duration maxRun) {
    this.client = EtcdClients.connect(endpoints);
    long deadline = System.nanoTime() + maxRun.toNanos();
    this.thread = new Thread(() -> {
      long i = 0;
      while (running.get() && System.nanoTime() < deadline) {
        String key = prefix + "/" + i;
        try {
          requests.incrementAndGet();
          EtcdClients.put(client.getKVClient(), key, "v" + i);
          written.set(i + 1);
          requests.incrementAndGet();
          String back = EtcdClients.get(client.getKVClient(), key);
          if (!("v" + i).equals(back)) {
            failures.add(key + ": read back " + back);
          }
        } catch (Exception e) {
          failures.add(key + ": " + e);
        }
        i++;
      }
    }, "load-" + prefix);
    thread.setDaemon(true);
    thread.start();
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
  }
}
