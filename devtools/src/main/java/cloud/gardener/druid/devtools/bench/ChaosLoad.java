package cloud.gardener.druid.devtools.bench;

import cloud.gardener.druid.agent.etcd.EtcdClients;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The clients of a chaos run, all recording into one {@link ChaosHistory}: writers that each
 * put new keys ({@code chaos/<writer>/<seq>}, each written once) and read their last one back,
 * a watch of the prefix from the revision before the first write, and a monitor that asks every
 * member for its cluster ID and member list twice a second.
 */
final class ChaosLoad implements AutoCloseable {

  static final String PREFIX = "chaos/";
  private static final long REQUEST_TIMEOUT_SECONDS = 10;
  /** Between a writer's requests: two writers stay well under a core on a 2-core machine. */
  private static final long PACE_MILLIS = 20;
  private static final long MONITOR_MILLIS = 500;

  private final List<Client> clients = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  /** Each writer's newest put, answered or not. */
  private final Map<String, java.util.concurrent.CompletableFuture<PutResponse>> inFlight =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final ChaosHistory history;
  private final ChaosMembers members;
  private Watch.Watcher watcher;
  private volatile boolean stopping;

  private ChaosLoad(ChaosHistory history, ChaosMembers members) {
    this.history = history;
    this.members = members;
  }

  /** Starts {@code writers} writers, the watch and the monitor on the members as they are. */
  static ChaosLoad start(ChaosMembers members, int writers) throws Exception {
    List<URI> endpoints = members.pods().stream().map(ChaosMembers::endpoint).toList();
    Client watchClient = EtcdClients.connect(endpoints, Optional.empty());
    long revision = watchClient.getKVClient().get(bytes(PREFIX)).get(REQUEST_TIMEOUT_SECONDS,
        TimeUnit.SECONDS).getHeader().getRevision();
    ChaosLoad load = new ChaosLoad(new ChaosHistory(revision + 1), members);
    load.clients.add(watchClient);
    load.watcher = watchClient.getWatchClient().watch(bytes(PREFIX), WatchOption.builder()
        .isPrefix(true).withRevision(revision + 1).build(), load.listener());
    for (int w = 0; w < writers; w++) {
      Client writer = EtcdClients.connect(endpoints, Optional.empty());
      load.clients.add(writer);
      String name = "w" + w;
      load.thread("chaos-writer-" + name, () -> load.write(name, writer));
    }
    load.thread("chaos-monitor", load::monitor);
    return load;
  }

  ChaosHistory history() {
    return history;
  }

  private void thread(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  private Watch.Listener listener() {
    return new Watch.Listener() {
      @Override
      public void onNext(WatchResponse response) {
        for (WatchEvent e : response.getEvents()) {
          KeyValue kv = e.getKeyValue();
          history.delivered(kv.getKey().toString(StandardCharsets.UTF_8), kv.getModRevision());
        }
      }

      @Override
      public void onError(Throwable error) {
        history.watchInterrupted(String.valueOf(error.getMessage()));
      }

      @Override
      public void onCompleted() {
        if (!stopping) {
          history.watchInterrupted("the watch ended");
        }
      }
    };
  }

  private void write(String name, Client client) {
    for (long seq = 0; !stopping; seq++) {
      String key = String.format("%s%s/%08d", PREFIX, name, seq);
      try {
        var pending = client.getKVClient().put(bytes(key), bytes(Long.toString(seq)));
        inFlight.put(name, pending);
        PutResponse put = pending.get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        history.acknowledged(name, key, put.getHeader().getRevision());
        GetResponse read = client.getKVClient().get(bytes(key))
            .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        history.answered(name, false, read.getHeader().getRevision());
        Thread.sleep(PACE_MILLIS);
      } catch (InterruptedException e) {
        return;
      } catch (ExecutionException e) {
        history.writeFailed(String.valueOf(e.getCause().getMessage()));
      } catch (TimeoutException e) {
        history.writeFailed("no answer within " + REQUEST_TIMEOUT_SECONDS + " s");
      }
    }
  }

  private void monitor() {
    while (!stopping) {
      for (Pod pod : safePods()) {
        members.view(pod).ifPresent(v -> history.clusterId(v.clusterId()));
        members.memberList(pod).ifPresent(m -> history.membership(m[0], m[1]));
      }
      try {
        Thread.sleep(MONITOR_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private List<Pod> safePods() {
    try {
      return members.pods();
    } catch (RuntimeException apiDown) {
      return List.of();
    }
  }

  /**
   * Stops the writers, waits until the watch delivered the newest revision under the prefix
   * (at most {@code timeoutSeconds}) and reads every key: the snapshot the checks judge.
   */
  ChaosHistory.Snapshot finish(long timeoutSeconds) throws Exception {
    stopping = true;
    for (Thread t : threads) {
      t.interrupt();
      t.join(TimeUnit.SECONDS.toMillis(REQUEST_TIMEOUT_SECONDS * 2));
    }
    // a writer interrupted while its put was in flight leaves the put to land later, maybe
    // after the final read (ChaosBenchIT saw its event "for an absent key"): settle them first
    for (var pending : inFlight.values()) {
      try {
        pending.get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException unacknowledged) {
        // refused or unanswered: judged as not acknowledged, as it was
      }
    }
    Client reader = clients.get(0);
    GetResponse all = reader.getKVClient().get(bytes(PREFIX), GetOption.builder().isPrefix(true)
        .build()).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    Map<String, Long> finalRead = new TreeMap<>();
    long newest = 0;
    for (KeyValue kv : all.getKvs()) {
      finalRead.put(kv.getKey().toString(StandardCharsets.UTF_8), kv.getModRevision());
      newest = Math.max(newest, kv.getModRevision());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (history.newestEvent() < newest && System.nanoTime() < deadline) {
      Thread.sleep(100); // the watch delivers on the client's threads
    }
    return history.snapshot(finalRead);
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    stopping = true;
    threads.forEach(Thread::interrupt);
    if (watcher != null) {
      watcher.close();
    }
    clients.forEach(Client::close);
  }
}
